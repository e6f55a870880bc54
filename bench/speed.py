#!/usr/bin/env python
"""How fast jitlint is, next to TorchFix and ruff, on timm 1.0.31 and torchvision 0.28.0 (a script, not a test).

    python bench/speed.py [--workdir bench/.work] [--json bench/speed.json] [--skip-torchfix]
    python bench/speed.py --corpus transformers [--corpus-dir DIR] [--json bench/speed-transformers.json]

`--corpus transformers` measures the scale and editor figures on transformers 5.23.0 (2,860 files, 1.2M lines;
from `--corpus-dir`, a directory holding the `transformers` package, else installed `--no-deps` into the bench
venv): the parse-only floor, jitlint cold (filling the cache), jitlint cold in one process (its CPU time over the
cores is the best any split of the run across them can reach), warm, after appending a comment to one modeling file,
after a code edit inside a function body of that file and after undoing it, after adding a file nothing imports and
after deleting it (with how many files each of these runs linted again), peak memory per process (with the default
jobs), and the editor server's change-to-diagnostics time on that file over JSON-RPC.

It builds (or reuses) a virtual environment in the work directory holding the sources of timm and torchvision
(`--no-deps`: only their .py files are linted, nothing is imported) plus TorchFix and ruff (TorchFix pins its own
LibCST, which is why it gets an environment of its own). jitlint is the one installed with this interpreter.

In one run it times, as separate processes: jitlint cold (no cache), jitlint warm (cache full), jitlint on one file
cold and warm (the pre-commit case), TorchFix, ruff, `python -c "import libcst"`, and the parse-only floor (every
file through `libcst.parse_module`, one process). For each: wall and CPU seconds (CPU includes worker processes),
lines per CPU-second and the peak memory of the largest single process; then the ratios the targets are stated in.
It prints a Markdown table (for a record in bench/records/; the README quotes the transformers run's) and writes the
same figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["timm==1.0.31", "torchvision==0.28.0"]
TOOLS = ["torchfix==0.7.0", "ruff==0.17.6"]
ONE_FILE = "timm/models/resnet.py"
PARSE_FLOOR = """
import sys
import libcst
for path in sys.argv[1:]:
    with open(path, "rb") as stream:
        libcst.parse_module(stream.read())
"""


def environment(workdir: Path) -> tuple[Path, Path]:
    """The bench venv's python and its site-packages, created on first use."""
    env = workdir / "venv"
    python = env / "bin" / "python"
    marker = env / "bench-ready"
    if not marker.exists():
        print(f"building {env} ...", file=sys.stderr)
        venv.EnvBuilder(with_pip=True, clear=True).create(env)
        pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        subprocess.run([*pip, "--no-deps", *PACKAGES], check=True)
        subprocess.run([*pip, *TOOLS], check=True)  # TorchFix's own dependencies: LibCST 1.5, flake8, PyYAML
        marker.write_text("\n".join(PACKAGES + TOOLS) + "\n")
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    return python, site


def measure(name: str, command: list[str], cwd: Path, lines: int, output: Path | None = None,
            succeeded: tuple[int, ...] = (0,)) -> dict:
    """Run `command`; wall time, CPU time (its own and its reaped children's) and peak RSS of one process.
    `output`: where its stdout goes (default: nowhere). An exit status outside `succeeded` (a jitlint run is given
    `--exit-zero`, so anything but 0 is a failure: a traceback exits 1) stops the bench before any figure of that
    run is printed."""
    start = time.perf_counter()
    stdout = open(output, "wb") if output is not None else subprocess.DEVNULL
    process = subprocess.Popen(command, cwd=cwd, stdout=stdout, stderr=subprocess.PIPE)
    if output is not None:
        stdout.close()
    _pid, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    stderr = process.stderr.read().decode(errors="replace") if process.stderr else ""
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in succeeded:
        raise SystemExit(f"{name} failed ({process.returncode}): {' '.join(command)}\n{stderr[-2000:]}")
    cpu = usage.ru_utime + usage.ru_stime
    print(f"{name}: {wall:.2f} s wall, {cpu:.2f} s CPU, {usage.ru_maxrss / 1024:.0f} MB", file=sys.stderr, flush=True)
    return {
        "name": name,
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        "lines": lines,
        "lines_per_cpu_s": round(lines / cpu) if cpu else None,
        "peak_mb": round(usage.ru_maxrss / 1024, 1),
    }


# A run through the command line (`check` and the arguments after the file's name) that also writes what the run measured of
# itself (`LintRun.stats`: CPU seconds by phase and by process, each file's cost, what each process parsed with
# LibCST) and the CPU seconds of this process and of its children, to the JSON file named first.
RUN_WITH_STATS = """
import json, resource, sys, time
from jitlint import cli, engine
runs = []
real = engine.lint_run
engine.lint_run = lambda *a, **k: runs.append(real(*a, **k)) or runs[-1]
start = time.perf_counter()
try:
    status = cli.main(["check", *sys.argv[2:]], standalone_mode=False)  # (a click `Exit` comes back as its code)
except SystemExit as exit:
    status = exit.code
status = status if isinstance(status, int) else 0 if status is None else 1
if not runs:
    sys.exit(status or 1)  # no run was made: no figure to write
wall = time.perf_counter() - start
own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[1], "w") as stream:
    json.dump({"wall_s": wall, "self_cpu_s": own.ru_utime + own.ru_stime,
               "children_cpu_s": children.ru_utime + children.ru_stime, "stats": runs[0].stats}, stream)
sys.exit(status)  # (the bench reads the exit status: a run that failed after its lint must not give figures)
"""


def makespan(costs: list[float], cores: int) -> float:
    """The longest share when tasks of these costs go, largest first, each to the least loaded of `cores`."""
    loads = [0.0] * cores
    for cost in sorted(costs, reverse=True):
        loads[loads.index(min(loads))] += cost
    return max(loads)


def pipeline_figures(measured: dict, files: int) -> dict:
    """What a cold run's own measurements say (`RUN_WITH_STATS`): the serial CPU (everything in the parent process:
    start-up, discovery, splitting, gathering, output), the total CPU (the parent and every child: phase one's
    readers and the workers), the wall time the measured costs predict on more cores (the serial part, plus the
    per-file costs of parsing and linting spread largest first over the cores, plus the rest of the workers' and
    phase one's CPU divided evenly), and how many times each file was parsed with LibCST across the processes."""
    stats = measured["stats"]
    serial = measured["self_cpu_s"]
    total = serial + measured["children_cpu_s"]
    costs = list(stats.get("costs", {}).values())
    rest = max(measured["children_cpu_s"] - sum(costs), 0.0)
    predicted = {cores: round(serial + rest / cores + makespan(costs, cores), 2) for cores in (2, 4, 8, 16)}
    parsed: dict[str, int] = {}
    pieces = 0
    for process in stats.get("parses", []):
        for path, count in process["files"].items():
            parsed[path] = parsed.get(path, 0) + count
        pieces += sum(process["pieces"].values())
    return {"serial_cpu_s": round(serial, 2), "total_cpu_s": round(total, 2),
            "serial_share": round(serial / total, 4) if total else None,
            "summaries_cpu_s": stats.get("summaries_cpu_s"), "workers": stats.get("workers"),
            "predicted_wall_s": predicted, "files": files, "files_parsed": len(parsed),
            "parses_per_file_max": max(parsed.values(), default=0),
            "files_parsed_more_than_once": sorted(path for path, count in parsed.items() if count > 1),
            "pieces_parsed": pieces, "wall_s": round(measured["wall_s"], 2)}


def count_lines(files: list[Path]) -> int:
    return sum(path.read_bytes().count(b"\n") for path in files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, default=ROOT / "bench" / ".work")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--skip-torchfix", action="store_true", help="TorchFix takes minutes; skip it for a quick look")
    parser.add_argument("--corpus", choices=["timm+torchvision", "transformers"], default="timm+torchvision")
    parser.add_argument("--corpus-dir", type=Path, default=None,
                        help="with --corpus transformers: a directory holding the `transformers` package")
    parser.add_argument("--editor-only", action="store_true",
                        help="with --corpus transformers: only the editor server's latency, on the sources of "
                             "--corpus-dir as they are (nothing is edited on disk); prints JSON")
    args = parser.parse_args()
    if args.corpus == "transformers" and args.editor_only:
        source = args.corpus_dir or environment(args.workdir.resolve())[1]
        print(json.dumps(editor_latency(Path(source), EDITED), indent=2))
        return
    if args.corpus == "transformers":
        scale(args)
        return
    args.json = args.json or ROOT / "bench" / "speed.json"
    workdir = args.workdir.resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    bench_python, site = environment(workdir)
    targets = ["timm", "torchvision"]
    files = sorted(path for target in targets for path in (site / target).rglob("*.py"))
    lines = count_lines(files)
    one_file_lines = count_lines([site / ONE_FILE])
    cache = workdir / "jitlint-cache"
    shutil.rmtree(cache, ignore_errors=True)
    jitlint = [sys.executable, "-m", "jitlint", "check", "--exit-zero", "--quiet", "--cache-dir", str(cache)]
    ruff = bench_python.parent / "ruff"
    torchfix = bench_python.parent / "torchfix"

    build = cache_build()
    results = [
        measure("parse-only floor (libcst.parse_module, 1 process)", [sys.executable, "-c", PARSE_FLOOR,
                *map(str, files)], site, lines),
        measure("jitlint cold (--no-cache)", [*jitlint, "--no-cache", *targets], site, lines),
        measure("jitlint cold, 1 job", [*jitlint, "--no-cache", "--jobs", "1", *targets], site, lines),
        measure("jitlint (filling the cache)", [*jitlint, *targets], site, lines),
        measure("jitlint warm (cache full)", [*jitlint, *targets], site, lines),
        measure("jitlint one file, cold", [*jitlint, "--no-cache", ONE_FILE], site, one_file_lines),
    ]
    measure("(filling the one-file cache)", [*jitlint, ONE_FILE], site, one_file_lines)
    results.append(measure("jitlint one file, warm", [*jitlint, ONE_FILE], site, one_file_lines))
    same_build(build, "the end of the cached runs")
    results.append(measure('python -c "import libcst"', [sys.executable, "-c", "import libcst"], site, 0))
    results.append(measure("ruff check (defaults, --no-cache)", [str(ruff), "check", "--no-cache", "--isolated",
                                                                  "--exit-zero", "--quiet", *targets], site, lines))
    if not args.skip_torchfix:
        results.append(measure("TorchFix 0.7.0 (all cores)", [str(torchfix), *targets], site, lines,
                               succeeded=(0, 1)))
    by_name = {result["name"]: result for result in results}

    def ratio(a: str, b: str) -> float | None:
        if a not in by_name or b not in by_name:
            return None
        return round(by_name[a]["wall_s"] / by_name[b]["wall_s"], 3)

    ratios = [
        ("jitlint cold / TorchFix (wall)", ratio("jitlint cold (--no-cache)", "TorchFix 0.7.0 (all cores)"), 0.1),
        ("jitlint cold / parse-only floor (wall)",
         ratio("jitlint cold (--no-cache)", "parse-only floor (libcst.parse_module, 1 process)"), 1.5),
        ("jitlint warm / jitlint cold (wall)", ratio("jitlint warm (cache full)", "jitlint cold (--no-cache)"), 0.05),
        ('one file warm / python -c "import libcst" (wall)',
         ratio("jitlint one file, warm", 'python -c "import libcst"'), 1.0),
    ]
    peak = max(by_name[name]["peak_mb"] for name in by_name if name.startswith("jitlint"))
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"
    report = {
        "machine": machine,
        "date": time.strftime("%Y-%m-%d"),
        "files": len(files),
        "lines": lines,
        "results": results,
        "ratios": [{"ratio": name, "value": value, "target": target,
                    "met": value is not None and (value < target if target == 1.0 else value <= target)}
                   for name, value, target in ratios],
        "jitlint_peak_mb_per_process": {"value": peak, "target": 300, "met": peak <= 300},
    }
    args.json.write_text(json.dumps(report, indent=2) + "\n")

    print(f"{len(files)} files, {lines:,} lines (timm 1.0.31 + torchvision 0.28.0); {machine}\n")
    print("| run | wall s | CPU s | lines / CPU-s | peak MB |")
    print("|---|---:|---:|---:|---:|")
    for result in results:
        rate = f"{result['lines_per_cpu_s']:,}" if result["lines"] and result["lines_per_cpu_s"] else "-"
        print(f"| {result['name']} | {result['wall_s']:.2f} | {result['cpu_s']:.2f} | {rate} | {result['peak_mb']:.0f} |")
    print("\n| ratio | value | target | met |")
    print("|---|---:|---:|---|")
    for item in report["ratios"]:
        value = "-" if item["value"] is None else f"{item['value']:.3f}"
        comparison = "<" if item["target"] == 1.0 else "≤"
        print(f"| {item['ratio']} | {value} | {comparison} {item['target']} | {'yes' if item['met'] else 'NO'} |")
    memory = report["jitlint_peak_mb_per_process"]
    print(f"| jitlint peak memory per process (MB) | {memory['value']:.0f} | ≤ 300 | {'yes' if memory['met'] else 'NO'} |")
    print(f"\nJSON: {args.json}")


# -- transformers: scale and the editor loop -----------------------------------------------------------------------
TRANSFORMERS = "transformers==5.23.0"
EDITED = "transformers/models/llama/modeling_llama.py"


def transformers_tree(args, workdir: Path) -> Path:
    """A private copy of the transformers sources (the one-file edit must not touch the original): workdir/scale."""
    source = args.corpus_dir
    if source is None:
        python, site = environment(workdir)
        if not (site / "transformers").is_dir():
            subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", TRANSFORMERS], check=True)
        source = site
    copy = workdir / "scale"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(Path(source) / "transformers", copy / "transformers",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    return copy


def editor_latency(tree: Path, path: str, changes: int = 5) -> dict:
    """`jitlint server` over JSON-RPC: open `path`, then `changes` times append a comment and time the change until
    its diagnostics arrive (the debounce included). The first open is timed apart (modules read cold). Also the
    server process's CPU seconds per change (from /proc, where there is one) and the load average before and after:
    on a shared machine the wall time is mostly waiting for a core."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_integrations import LspClient  # the JSON-RPC client the tests use

    file = tree / path
    text = file.read_text(encoding="utf-8")
    client = LspClient(tree)
    try:
        client.request("initialize", {"processId": None, "rootUri": tree.as_uri(), "capabilities": {}})
        client.send("initialized", {})
        start = time.perf_counter()
        client.send("textDocument/didOpen", {"textDocument": {"uri": file.as_uri(), "languageId": "python",
                                                              "version": 1, "text": text}})
        client.diagnostics(file.as_uri(), timeout=3600)  # (the modules read cold: long on a loaded machine)
        opened = time.perf_counter() - start
        times, cpus = [], []
        load_before = os.getloadavg()[0]
        for version in range(2, 2 + changes):
            text += f"# edit {version}\n"
            cpu = _process_cpu(client.process.pid)
            start = time.perf_counter()
            client.send("textDocument/didChange", {"textDocument": {"uri": file.as_uri(), "version": version},
                                                   "contentChanges": [{"text": text}]})
            client.diagnostics(file.as_uri(), timeout=600)
            times.append(time.perf_counter() - start)
            if cpu is not None:
                cpus.append(round(_process_cpu(client.process.pid) - cpu, 3))
        client.request("shutdown", None)
        client.send("exit", None)
    finally:
        if client.process.poll() is None:
            client.process.kill()
    times.sort()
    from jitlint.server import DEBOUNCE_SECONDS

    return {"open_s": round(opened, 3), "change_median_s": round(times[len(times) // 2], 3),
            "change_max_s": round(times[-1], 3), "changes": len(times), "debounce_s": DEBOUNCE_SECONDS,
            "server_cpu_s_per_change": cpus, "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)]}


def editor_or_none(tree: Path) -> dict | None:
    """`editor_latency`, or None when the server did not answer in time (a loaded machine): the runs after it are
    still measured."""
    try:
        return editor_latency(tree, EDITED)
    except TimeoutError as error:
        print(f"editor: not measured ({error})", file=sys.stderr, flush=True)
        return None


def _process_cpu(pid: int) -> float | None:
    """User + system CPU seconds of a running process (Linux), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


CODE_EDIT = (b"torch.rsqrt(variance + self.variance_epsilon)", b"torch.rsqrt(variance + self.variance_epsilon + 0.0)")


NEW_FILE = "transformers/models/llama/_bench_new.py"
NEW_FILE_TEXT = "import torch.nn as nn\n\n\nclass BenchNew(nn.Module):\n    def forward(self, x):\n        return x\n"


def commit() -> str:
    """The commit of the jitlint that runs (the checkout it is imported from), `+dirty` with local changes."""
    import jitlint

    where = Path(jitlint.__file__).resolve().parent
    run = lambda *args: subprocess.run(["git", *args], cwd=where, capture_output=True, text=True)  # noqa: E731
    head = run("rev-parse", "--short", "HEAD").stdout.strip() or "unknown"
    return head + ("+dirty" if run("status", "--porcelain", "--untracked-files=no").stdout.strip() else "")


def run_generation(cache: Path) -> str | None:
    """The generation of the last manifest written in `cache` (None before the first)."""
    manifests = list(cache.glob("static/*/*/run-manifest"))
    if not manifests:
        return None
    [manifest] = manifests  # (writing a manifest removes those of other builds)
    return json.loads(manifest.read_text())["generation"]


def linted_again(cache: Path, before: str | None) -> int:
    """How many files the last run linted (wrote an entry for): those of the manifest's files whose entry is of the
    run's generation; 0 if the run wrote no manifest (`before`, the generation before it: a warm run), or wrote one
    that lints nothing (e.g. a deleted file nothing imported)."""
    [manifest] = cache.glob("static/*/*/run-manifest")
    data = json.loads(manifest.read_text())
    if data["generation"] == before:
        return 0
    return sum(generation == data["generation"] for _content, _interface, generation in data["files"].values())


def cache_build() -> str:
    """The cache's build of the jitlint this bench runs (its version, its own files' sizes and mtimes): entries of
    another build are never read, so a run after an edit of jitlint (an editable install) is a cold run."""
    from jitlint.cache import build_id

    return build_id()


def same_build(build: str, name: str) -> None:
    """Stop the bench if jitlint's own files changed since it started: the cached runs' figures would be cold runs'."""
    if cache_build() != build:
        raise SystemExit(f"jitlint's own files changed during the bench (before {name!r}): the cache's entries are "
                         f"of another build, so the runs that read the cache would be cold runs. Do not edit the "
                         f"installed jitlint while the bench runs.")


def scale(args) -> None:
    workdir = args.workdir.resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    json_path = args.json or ROOT / "bench" / "speed-transformers.json"
    tree = transformers_tree(args, workdir)
    load_at_start, measured = os.getloadavg(), commit()  # (the checkout may change while the bench runs)
    files = sorted((tree / "transformers").rglob("*.py"))
    lines = count_lines(files)
    edited = tree / EDITED
    cache = workdir / "scale-cache"
    shutil.rmtree(cache, ignore_errors=True)
    jitlint = [sys.executable, "-m", "jitlint", "check", "--exit-zero", "--output-format", "concise", "--cache-dir",
               str(cache)]
    # The cold run starts from an empty cache and fills it (writing the entries is part of its cost).
    cold_name, edit_name = "jitlint cold (empty cache, filling it)", "jitlint after a one-file edit"
    code_name = "jitlint after a code edit in a function body of modeling_llama.py"
    undo_name = "jitlint after undoing that edit"
    added_name = "jitlint after adding a file nothing imports"
    deleted_name = "jitlint after deleting that file"
    single_name = "jitlint cold in one process (-j1, no cache)"
    outputs = {name: workdir / f"scale-{name}.txt" for name in ("cold", "single", "warm", "edit", "code", "undo",
                                                                 "added", "deleted")}
    build = cache_build()

    def cached(name: str, output: str) -> dict:  # a run that reads and writes the cache, of the build measured
        same_build(build, name)
        result = measure(name, [*jitlint, "transformers"], tree, lines, outputs[output])
        same_build(build, name)
        return result

    floor_name = "parse-only floor (libcst.parse_module, 1 process)"
    stats_file = workdir / "scale-stats.json"
    partial = json_path.with_name(json_path.stem + "-partial.json")
    shown: list[dict] = []
    relinted: dict[str, int] = {}
    results: list[dict] = []

    def show(figure: str, value, target=None) -> None:
        """Print one figure as soon as it is measured (and keep every one so far in the partial JSON): a run
        stopped before the end still says what it measured."""
        met = None if target is None or value is None else value <= target
        shown.append({"figure": figure, "value": value, "target": target, "met": met})
        print(f"FIGURE | {figure} | {value} | {'-' if target is None else f'≤ {target}'} | "
              f"{'-' if met is None else 'met' if met else 'NOT met'} |", flush=True)
        partial.write_text(json.dumps({"commit": measured, "results": results, "figures": shown,
                                       "files_linted_again": relinted}, indent=2) + "\n")

    # The figures of the issue first (the one-process run last of them), the other edits after.
    results.append(measure(floor_name, [sys.executable, "-c", PARSE_FLOOR, *map(str, files)], tree, lines))
    floor, floor_cpu = results[0]["wall_s"], results[0]["cpu_s"]
    show("parse-only floor (CPU s)", floor_cpu)
    # The cold run (empty cache, filling it) measures itself: serial share, predicted wall by cores, parses.
    same_build(build, cold_name)
    results.append(measure(cold_name, [sys.executable, "-c", RUN_WITH_STATS, str(stats_file), "--exit-zero",
                                       "--output-format", "concise", "--cache-dir", str(cache), "transformers"],
                           tree, lines, outputs["cold"]))
    same_build(build, cold_name)
    cold = results[-1]["wall_s"]
    figures = pipeline_figures(json.loads(stats_file.read_text()), len(files))
    show("cold run: total CPU (s)", figures["total_cpu_s"])
    show("serial CPU (the parent process) / the cold run's total CPU", figures["serial_share"], 0.05)
    show("the cold run's total CPU / parse-only floor (CPU)", round(figures["total_cpu_s"] / floor_cpu, 3), 1.5)
    for n in (4, 8, 16):
        show(f"predicted wall on {n} cores / parse-only floor (CPU)",
             round(figures["predicted_wall_s"][n] / floor_cpu, 3), 0.25 if n == 16 else None)
    show("LibCST parses of one file in a cold run, most (all processes)", figures["parses_per_file_max"], 1)
    show("jitlint cold / parse-only floor (wall)", round(cold / floor, 3), 0.7)
    show("cold run: largest process (MB)", results[-1]["peak_mb"], 600)
    before = run_generation(cache)
    results.append(cached("jitlint warm (cache full)", "warm"))
    relinted["warm"] = linted_again(cache, before)
    show("warm / cold (wall)", round(results[-1]["wall_s"] / cold, 3))
    original = edited.read_bytes()
    # A comment at the end changes no finding: the run after the edit must print what the cold run printed.
    edited.write_bytes(original + b"# a comment appended by bench/speed.py\n")
    before = run_generation(cache)
    try:
        results.append(cached(edit_name, "edit"))
    finally:
        edited.write_bytes(original)
    relinted["comment"] = linted_again(cache, before)
    show("one-file edit / jitlint cold (wall)", round(results[-1]["wall_s"] / cold, 3), 0.02)
    show("(on a shared machine) one-file edit / jitlint cold (CPU)",
         round(results[-1]["cpu_s"] / results[1]["cpu_s"], 3), 0.02)
    editor = editor_or_none(tree)
    show("editor: change to diagnostics, median (s, debounce included)", editor and editor["change_median_s"], 0.3)
    # The work of a cold run with each file parsed once and nothing repeated across processes: its CPU time over
    # the cores bounds from below what any split of the run across them can reach. (Before the edits below, which
    # are no figure of the issue: a bench stopped early has the figures.)
    results.append(measure(single_name, [*jitlint, "--no-cache", "-j1", "transformers"], tree, lines,
                           outputs["single"]))
    show("one-process cold / parse-only floor (CPU): the work itself", round(results[-1]["cpu_s"] / floor_cpu, 3))
    # A code edit inside a function body (RMSNorm.forward, compiled code; it changes no finding), then the edit
    # undone: each run lints the edited file, the files that read it and those whose records it changes; after the
    # undo the output must again be the cold run's.
    code = original.replace(CODE_EDIT[0], CODE_EDIT[1], 1)
    assert code != original, "the code edit's line is not in the file"
    edited.write_bytes(code)
    before = run_generation(cache)
    try:
        results.append(cached(code_name, "code"))
        relinted["code"] = linted_again(cache, before)
    finally:
        edited.write_bytes(original)
    show("code edit in a body / jitlint cold (wall)", round(results[-1]["wall_s"] / cold, 3))
    before = run_generation(cache)
    results.append(cached(undo_name, "undo"))
    relinted["undo"] = linted_again(cache, before)
    # A new file nothing imports, then that file deleted (the tree is the original again: the output must be the
    # cold run's): each lints what can see the file, here only the new file, then nothing.
    new_file = tree / NEW_FILE
    new_file.write_text(NEW_FILE_TEXT)
    before = run_generation(cache)
    try:
        results.append(cached(added_name, "added"))
        relinted["new file"] = linted_again(cache, before)
    finally:
        new_file.unlink()
    before = run_generation(cache)
    results.append(cached(deleted_name, "deleted"))
    relinted["deleted"] = linted_again(cache, before)
    same_output = outputs["cold"].read_bytes() == outputs["warm"].read_bytes() == outputs["edit"].read_bytes()
    single_same = outputs["cold"].read_bytes() == outputs["single"].read_bytes()
    code_same = (outputs["cold"].read_bytes() == outputs["code"].read_bytes() == outputs["undo"].read_bytes()
                 == outputs["deleted"].read_bytes())
    by_name = {result["name"]: result for result in results}
    peak = max(result["peak_mb"] for result in results  # (the target is stated with the default jobs)
               if result["name"].startswith("jitlint") and result["name"] != single_name)
    def cpu(name: str) -> float:
        return by_name[name]["cpu_s"]

    cores = os.cpu_count() or 1
    targets = [
        ("serial CPU (the parent process) / the cold run's total CPU", figures["serial_share"], 0.05),
        ("the cold run's total CPU / parse-only floor (CPU)", round(figures["total_cpu_s"] / floor_cpu, 3), 1.5),
        *[(f"predicted wall on {n} cores / parse-only floor (CPU)", round(figures["predicted_wall_s"][n] / floor_cpu,
                                                                          3), 0.25 if n == 16 else None)
          for n in (4, 8, 16)],
        ("LibCST parses of one file in a cold run, most (all processes)", figures["parses_per_file_max"], 1),
        ("jitlint cold / parse-only floor (wall)", round(cold / floor, 3), 0.7),
        ("one-file edit / jitlint cold (wall)", round(by_name[edit_name]["wall_s"] / cold, 3), 0.02),
        ("(on a shared machine) jitlint cold / parse-only floor (CPU)", round(cpu(cold_name) / cpu(floor_name), 3),
         None),
        ("one-process cold / parse-only floor (CPU): the work itself", round(cpu(single_name) / cpu(floor_name), 3),
         None),
        (f"best cold / parse-only floor (wall) any split on {cores} cores can reach: one-process CPU / {cores} / "
         "floor", round(cpu(single_name) / cores / floor, 3), None),
        ("(on a shared machine) one-file edit / jitlint cold (CPU)", round(cpu(edit_name) / cpu(cold_name), 3),
         0.02),
        ("code edit in a body / jitlint cold (wall)", round(by_name[code_name]["wall_s"] / cold, 3), None),
        ("code edit in a body / jitlint cold (CPU)", round(cpu(code_name) / cpu(cold_name), 3), None),
        ("editor: change to diagnostics, median (s, debounce included)", editor and editor["change_median_s"], 0.3),
        ("jitlint peak memory per process (MB)", peak, 600),
    ]
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"
    load = os.getloadavg()
    report = {
        "machine": machine, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "commit": measured,
        "load_average_at_start": [round(x, 1) for x in load_at_start], "load_average": [round(x, 1) for x in load],
        "files": len(files), "lines": lines, "results": results, "editor": editor, "pipeline": figures,
        "warm_and_edit_output_same_as_cold": same_output, "one_process_output_same_as_cold": single_same,
        "code_edit_and_undo_output_same_as_cold": code_same, "files_linted_again": relinted,
        "targets": [{"figure": name, "value": value, "target": target,
                     "met": None if target is None or value is None else value <= target}
                    for name, value, target in targets],
    }
    json_path.write_text(json.dumps(report, indent=2) + "\n")
    print(f"{len(files)} files, {lines:,} lines (transformers 5.23.0); {machine}; {report['date']}, jitlint "
          f"{report['commit']}; load average {load_at_start[0]:.1f} at the start, {load[0]:.1f} at the end\n")
    print("| run | wall s | CPU s | lines / CPU-s | peak MB |")
    print("|---|---:|---:|---:|---:|")
    for result in results:
        rate = f"{result['lines_per_cpu_s']:,}" if result["lines"] and result["lines_per_cpu_s"] else "-"
        print(f"| {result['name']} | {result['wall_s']:.2f} | {result['cpu_s']:.2f} | {rate} | {result['peak_mb']:.0f} |")
    if editor is not None:
        print(f"| editor: open `{Path(EDITED).name}` (modules read cold) | {editor['open_s']:.2f} | | | |")
        print(f"| editor: change to diagnostics, median of {editor['changes']} (max) | {editor['change_median_s']:.2f} "
              f"({editor['change_max_s']:.2f}) | | | |")
    print("\n| figure | value | target | met |")
    print("|---|---:|---:|---|")
    for item in report["targets"]:
        met = "-" if item["met"] is None else "yes" if item["met"] else "NO"
        target = "-" if item["target"] is None else f"≤ {item['target']}"
        print(f"| {item['figure']} | {item['value']} | {target} | {met} |")
    print(f"\nThe cold run measuring itself: serial {figures['serial_cpu_s']} CPU-s of {figures['total_cpu_s']} "
          f"(phase one {figures['summaries_cpu_s']} CPU-s); predicted wall (s) by cores {figures['predicted_wall_s']}; "
          f"parse-only floor {floor_cpu:.2f} CPU-s; {figures['files_parsed']} of {figures['files']} files parsed "
          f"with LibCST, {len(figures['files_parsed_more_than_once'])} more than once "
          f"{figures['files_parsed_more_than_once'][:10]}, {figures['pieces_parsed']} pieces of files")
    for number, worker in enumerate(figures["workers"] or []):
        print(f"  worker {number}: " + ", ".join(f"{phase} {seconds:.1f}" if isinstance(seconds, float) else
                                                  f"{phase} {seconds}" for phase, seconds in worker.items()))
    print(f"\nOutput of the warm run and of the run after the edit identical to the cold run's: "
          f"{'yes' if same_output else 'NO'}; of the one-process run: {'yes' if single_same else 'NO'}")
    print(f"Output after the code edit, after undoing it and after the new file was deleted identical to the cold "
          f"run's: "
          f"{'yes' if code_same else 'NO'}; files linted again: {relinted}")
    print(f"JSON: {json_path}")


if __name__ == "__main__":
    main()

"""How far jitlint's static findings agree with torch.jit.script, on any installed library (a benchmark, not a test).

    python bench/agreement.py torch.nn.modules torchvision.models ...     # installed packages, by import name
    python bench/agreement.py --path /some/checkout/pkg                   # a package directory
    python bench/agreement.py --from-json run.json --name lib            # score a saved `--dynamic` JSON run

For each library it runs `jitlint check --dynamic --output-format json` (the dynamic checker imports each file as
part of its package, builds the module classes it can, scripts them, and marks every static finding) and reports,
counting unique (file, line) pairs:

- static recall: confirmed / (confirmed + JIT000): of the lines torch rejected, how many a static error found
  (JIT000 is an error only torch reported);
- strict recall: the same, counting a confirmed finding only when torch's error names the finding's own line, no
  line (a whole-class rejection), or is the rule's own error; a finding confirmed by another error elsewhere in its
  statement (the flow rules' statement is the whole function) counts torch's line instead, found only if another
  finding sits on it;
- false errors: static errors torch did not reproduce although it scripted every class that reaches them
  (`not-reproduced`), i.e. errors on code a scripted model compiled; precision = confirmed / (confirmed + those);
- unverified: static errors torch could not check (the class needs constructor arguments, the import failed, ...);
- the misses (JIT000) grouped by torch's message, names and numbers masked;
- the recall without the misses torch gave no line for in the linted code (whole-class rejections that the
  dynamic checker places at the `class` line: a config object torch cannot compile, a library's deliberate
  `__prepare_scriptable__` refusal).

`--markdown` prints the table as Markdown (for a record in bench/records/). Nothing here is a pass/fail threshold.

Classes that need constructor arguments: `--factories timm|torchvision|transformers` builds them through the
library's own builders (bench/agreement_factories.py: each class found in a model built on the meta device gets a
factory that returns that submodule), passed to jitlint as `[tool.jitlint.dynamic] factories` in a generated
`--config`. `--families a,b` restricts the builders (timm model modules, torchvision builder names, transformers
model directories) and `--only sub/dir,...` the linted files (paths inside the package); `--timeout` is the
per-file limit (300 s with factories, else jitlint's default unless given). Run it with the interpreter that has the library and torch, e.g. a virtualenv made with
`--system-site-packages`; for torchvision's CUDA-only wheels on a CPU torch see bench/agreement_torchvision_ops.py.

    python bench/agreement.py --path /tmp/corpus/timm/timm --factories timm --save runs/
    python bench/agreement.py --path .../transformers --factories transformers --families bert,gpt2 \
        --only models/bert,models/gpt2
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from jitlint.codes import CODES  # noqa: E402
from jitlint.targets.script.confirm import same_error  # noqa: E402
from jitlint.targets.script.confirm_reasons import OWN, reason  # noqa: E402


def package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"agreement: {name} is not an installed package")
    return Path(list(spec.submodule_search_locations)[0])


def factory_config(library: str, families: list[str], work: Path, timeout: float) -> tuple[Path, Path]:
    """Discover the factories (in a child process: it imports the library) and write the pyproject.toml and the
    table the worker-side `agreement_factories` reads."""
    discovered = work / f"discovered-{library}.json"
    subprocess.run([sys.executable, str(ROOT / "bench" / "agreement_factories.py"), library, str(discovered),
                    *families], check=True, cwd=work)
    found = json.loads(discovered.read_text())
    for line in found["failed"]:
        print(f"  factory not built: {line}", file=sys.stderr)
    keys = sorted(found["factories"])
    table = work / f"factories-{library}.json"
    table.write_text(json.dumps({"table": [found["factories"][key] for key in keys]}))
    pairs = ", ".join(f'"{key}" = "agreement_factories:f{number}"' for number, key in enumerate(keys))
    config = work / "pyproject.toml"
    config.write_text(f"[tool.jitlint.dynamic]\ntimeout = {timeout}\nfactories = {{ {pairs} }}\n")
    print(f"  {len(keys)} classes get a factory ({found['seconds']:.0f}s to discover)", file=sys.stderr)
    return config, table


def run_dynamic(directory: Path, jobs: int | None, config: Path | None = None, table: Path | None = None,
                only: list[str] = ()) -> tuple[list[dict], float]:
    path = os.pathsep.join([str(ROOT / "src"), str(ROOT / "bench"), os.environ.get("PYTHONPATH", "")])
    env = dict(os.environ, PYTHONPATH=path)
    targets = [str(directory / part) for part in only] or [str(directory)]
    command = [sys.executable, "-m", "jitlint", "check", "--dynamic", "--no-cache", "--exit-zero",
               "--output-format", "json", *targets]
    if jobs:
        command[4:4] = ["--jobs", str(jobs)]
    if config is not None:
        command[4:4] = ["--config", str(config)]
        if table is not None:
            env["JITLINT_AGREEMENT_FACTORIES"] = str(table)
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, env=env, cwd=directory.parent)
    elapsed = time.perf_counter() - started
    try:
        return json.loads(result.stdout), elapsed
    except json.JSONDecodeError:
        raise SystemExit(f"agreement: jitlint failed on {directory}: {result.stderr.strip()[-500:]}")


def _masked(message: str) -> str:
    first = message.strip().splitlines()[0] if message.strip() else "(empty)"
    first = re.sub(r"^.*?torch [0-9.+a-z]+: ", "", first)
    first = re.sub(r"'[^']*'", "'…'", first)
    first = re.sub(r"`[^`]*`", "`…`", first)
    first = re.sub(r"\b\d+\b", "N", first)
    return first[:110]


def _own_error(confirmation: dict, code: str) -> bool:
    """Is the error that confirmed a finding its rule's own (the page's text)? The detail is torch's message
    shortened by the dynamic checker (`confirm._short`: its trailing colon dropped, cut at 80 characters) with
    "(line N)" after it; compared without that suffix, and with and without the colon torch ends its first line
    with (a page quoting "function definitions aren't supported:" is the same error as the detail's "function
    definitions aren't supported (line 65)")."""
    said = _said(confirmation)
    return same_error(said, code) or same_error(said + ":", code)


def _said(confirmation: dict) -> str:
    """Torch's message in a confirmation's detail (shortened by the dynamic checker), without the place after it."""
    said = re.sub(r"^torch [0-9.+a-z]+: ", "", confirmation.get("detail", ""))
    return re.sub(r"\s*\((?:line \d+|no line given|line \d+, [^()]*|line \d+ of [^()]*)\)\s*$", "", said)


def score(findings: list[dict]) -> dict:
    lines = lambda items: {(f["filename"], f["location"]["row"]) for f in items}
    errors = [f for f in findings if f["code"] != "JIT000" and CODES.get(f["code"]) is not None
              and CODES[f["code"]].severity == "error"]
    status = lambda f: (f.get("confirmation") or {}).get("status")
    confirmed = lines(f for f in errors if status(f) == "confirmed")
    false = lines(f for f in errors if status(f) == "not-reproduced")
    unverified = lines(f for f in errors if status(f) not in ("confirmed", "not-reproduced"))
    compiler = [f for f in findings if f["code"] == "JIT000"]
    missed = lines(compiler) - confirmed
    # Each missed line once, under torch's first message there (a line can also hold a confirmed error).
    first_message: dict = {}
    for f in compiler:
        first_message.setdefault((f["filename"], f["location"]["row"]), f["message"])
    groups = Counter(_masked(message) for line, message in first_message.items() if line not in confirmed)
    # Misses torch gave a line for in the linted code; the others are whole-class rejections placed at the
    # `class` line ("torch gave no line in your code": a config object it cannot compile, a library's own refusal).
    unlocated = {(f["filename"], f["location"]["row"]) for f in compiler if "torch gave no line" in f["message"]}
    located_missed = missed - unlocated
    recall = len(confirmed) / (len(confirmed) + len(missed)) if confirmed or missed else None
    # Strict: a confirmed finding counts only where torch's own line is the finding's line, where torch gave no
    # line (a whole-class rejection), or where torch's error is the rule's own (the same kind of error torch gave
    # at the first such line of the class). A finding whose statement is a whole function (the flow rules report
    # there) is confirmed by any error torch gives inside that function; then torch showed its line, not the
    # finding's, which counts as a line of its own, found only if another finding sits on it.
    strict_found, shown = set(), set()
    for f in errors:
        if status(f) != "confirmed":
            continue
        where = re.search(r"\((?:line (\d+)|no line given)\)\s*$", f["confirmation"].get("detail", ""))
        row = f["location"]["row"]
        if where is None or where.group(1) is None or int(where.group(1)) == row or _own_error(f["confirmation"], f["code"]):
            strict_found.add((f["filename"], row))
        else:
            shown.add((f["filename"], int(where.group(1))))
    strict_lines = missed | strict_found | shown
    precision = len(confirmed) / (len(confirmed) + len(false)) if confirmed or false else None
    # What `--dynamic` settled: each static error confirmed or refuted (not-reproduced), the rest by why not.
    settled = sum(1 for f in errors if status(f) in ("confirmed", "not-reproduced"))
    # A confirmation by torch's error at the finding's statement: for the rule's reason (the message is one its page
    # or torch's error sites name), or by place only (a schema mismatch, or a message no rule names).
    by_place = sum(1 for f in errors if status(f) == "confirmed" and
                   reason(_said(f["confirmation"]), f["code"])[0] != OWN and not _own_error(f["confirmation"], f["code"]))
    unsettled = [(f.get("confirmation") or {}).get("detail", "") for f in errors
                 if status(f) not in ("confirmed", "not-reproduced")]
    why = Counter(_unverified_reason(detail) for detail in unsettled)
    return {
        "errors": len(errors), "settled": settled, "confirmed_by_place": by_place, "unverified_by_reason": why.most_common(),
        "unverified_by_detail": Counter(_detail_shape(detail) for detail in unsettled).most_common(),
        "confirmed": len(confirmed), "missed": len(missed), "false_errors": len(false),
        "unverified": len(unverified), "recall": recall, "precision": precision,
        "located_missed": len(located_missed),
        "strict_found": len(strict_found), "strict_lines": len(strict_lines),
        "strict_recall": len(strict_found) / len(strict_lines) if strict_lines else None,
        "located_recall": len(confirmed) / (len(confirmed) + len(located_missed)) if confirmed or located_missed else None,
        "false_error_lines": sorted(f"{path}:{row}" for path, row in false),
        "misses_by_message": groups.most_common(),
    }


def _unverified_reason(detail: str) -> str:
    """Why a static error stayed unverified, in a few kinds."""
    for kind, pattern in (("masked", r"^masked"), ("needs constructor arguments", r"needs constructor arguments"),
                          ("no module class or scripted function reaches it", r"reaches this code"),
                          ("import failed", r"importing it failed"), ("building failed", r"building it raised"),
                          ("timed out", r"timed out"),
                          ("torch rejects its statement for another reason", r"for another reason"),
                          ("the file's time limit ran out first", r"time limit .*(?:ran out|nearly out)"),
                          ("stopped at an error with no usable location",
                                                        r"no usable location")):
        if re.search(pattern, detail):
            return kind
    return "other: " + _masked(detail)[:60]


def _detail_shape(detail: str) -> str:
    """An unverified finding's detail with its names, numbers and places blanked: its reason, for grouping."""
    detail = re.sub(r"`[^`]*`", "`…`", detail)
    detail = re.sub(r"'[^']*'", "'…'", detail)
    detail = re.sub(r"^masked: \w+ scripted only", "masked: X scripted only", detail)
    detail = re.sub(r"^scripting \w+ stopped", "scripting X stopped", detail)
    return re.sub(r"\b\d+(\.\d+)?\b", "N", detail)[:150]


def _ratio(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("packages", nargs="*", help="installed packages, by import name")
    parser.add_argument("--path", action="append", default=[], type=Path, help="a package directory")
    parser.add_argument("--from-json", type=Path, help="score a saved `jitlint check --dynamic` JSON output")
    parser.add_argument("--name", default=None, help="the library's name in the table (with --from-json)")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--reasons", action="store_true",
                        help="also list the unverified static errors by their detail (names and numbers blanked)")
    parser.add_argument("--save", type=Path, help="write each run's raw JSON findings here (a directory)")
    parser.add_argument("--factories", choices=["timm", "torchvision", "transformers"],
                        help="build classes through this library's model builders (see the docstring)")
    parser.add_argument("--families", default="", help="comma-separated: restrict the builders")
    parser.add_argument("--only", default="", help="comma-separated paths inside the package: lint only these")
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds per file (default: 300 with --factories, else jitlint's own default)")
    options = parser.parse_args()
    runs: list[tuple[str, dict, float]] = []
    if options.from_json:
        runs.append((options.name or options.from_json.stem, score(json.loads(options.from_json.read_text())), 0.0))
    targets = [(name, package_dir(name)) for name in options.packages] + [(p.name, p) for p in options.path]
    only = [part for part in options.only.split(",") if part]
    for name, directory in targets:
        config = table = None
        if options.factories:
            import tempfile

            work = Path(tempfile.mkdtemp(prefix="agreement-"))
            families = [part for part in options.families.split(",") if part]
            config, table = factory_config(options.factories, families, work, options.timeout or 300.0)
        elif options.timeout:
            import tempfile

            config = Path(tempfile.mkdtemp(prefix="agreement-")) / "pyproject.toml"
            config.write_text(f"[tool.jitlint.dynamic]\ntimeout = {options.timeout}\n")
        findings, elapsed = run_dynamic(directory.resolve(), options.jobs, config, table, only)
        if options.save:
            options.save.mkdir(parents=True, exist_ok=True)
            (options.save / f"{name}.json").write_text(json.dumps(findings))
        runs.append((name, score(findings), elapsed))
    if not runs:
        parser.error("name a package, a --path or --from-json")
    if options.markdown:
        print("| library | torch-rejected lines | found statically | missed (JIT000) | static recall | "
              "missed, torch gave the line | recall on those | false errors | precision | unverified errors |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for name, result, _ in runs:
            print(f"| {name} | {result['confirmed'] + result['missed']} | {result['confirmed']} | {result['missed']} "
                  f"| {_ratio(result['recall'])} | {result['located_missed']} | {_ratio(result['located_recall'])} "
                  f"| {result['false_errors']} | {_ratio(result['precision'])} | {result['unverified']} |")
        return 0
    for name, result, elapsed in runs:
        print(f"{name}: static recall {_ratio(result['recall'])} ({result['confirmed']} of "
              f"{result['confirmed'] + result['missed']} torch-rejected lines; {_ratio(result['located_recall'])} "
              f"without the {result['missed'] - result['located_missed']} torch gave no line for), "
              f"false errors {result['false_errors']}"
              f" (precision {_ratio(result['precision'])}), unverified {result['unverified']}"
              + (f", {elapsed:.0f}s" if elapsed else ""))
        print(f"{name}: strict recall {_ratio(result['strict_recall'])} ({result['strict_found']} of "
              f"{result['strict_lines']} lines, counting a confirmation only at torch's own line or by the rule's own error)")
        print(f"{name}: --dynamic settled {result['settled']} of {result['errors']} static errors "
              f"({_ratio(result['settled'] / result['errors'] if result['errors'] else None)}: confirmed or "
              f"not reproduced; {result['confirmed_by_place']} of the confirmed by place only: a schema mismatch or "
              "a message no rule names); unverified: " + ", ".join(f"{count} {why}" for why, count in
                                                         result["unverified_by_reason"]))
        if options.reasons:
            for detail, count in result["unverified_by_detail"]:
                print(f"  {count:4}  unverified: {detail}")
        for line in result["false_error_lines"]:
            print(f"    false error: {line}")
        for message, count in result["misses_by_message"]:
            print(f"  {count:4}  {message}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

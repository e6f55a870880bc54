"""Differential testing for TorchScript: random programs, torch.jit.script as the judge, jitlint as the prediction.

    python bench/differential.py --seed 1 --count 5000            # report on stdout
    python bench/differential.py --seed 1 --count 200 --json      # the report as JSON
    python bench/differential.py --seed 7 --count 50 --out DIR    # groups and their examples under DIR

Programs come from `bench/differential_programs.py` (a grammar of model code that knows nothing about jitlint):
`nn.Module` subclasses scripted as `torch.jit.script(Model())` and free functions scripted as
`torch.jit.script(entry)`. The batch is written to a temporary directory and:

- torch 2.13 scripts every program in child processes: the confirmer host's pool (`jitlint.confirm.pool`:
  long-lived children that import torch once, a time limit per program, a hung or crashed child replaced) running
  the script strategy's child side (`jitlint/targets/script/confirm_child.py`: import, build with no arguments,
  script, parse torch's error text into the program's line). One attempt per program: torch's first error is the
  verdict.
- `jitlint check --target script --output-format json --no-cache` runs once on the whole directory.

Per program: agree = torch scripts it and jitlint reports no error, or torch rejects it and jitlint reports an error
whose line is torch's line (or in the same statement; for a compound statement, its header); when torch names no
line, any error in the program. Disagreements are false errors (torch scripts it, jitlint reports an error: the most
important number), misses (torch rejects it, jitlint reports no error) and wrong lines (jitlint reports errors, none
at torch's line). Programs that fail before `torch.jit.script` (the import or the constructor raised) are generator
bugs: counted, not judged.

The report groups the disagreements by torch's first line (numbers, names and quoted identifiers masked; a generic
"Arguments for call are not valid" is split by the operator torch tried) and the false errors by jitlint's code;
each group keeps its smallest one or two programs under `--out` (default bench/.work/differential/) with torch's
full message and jitlint's findings beside them. `programs.jsonl` there holds every program's verdicts.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from differential_programs import Generator, Program  # noqa: E402

DEFAULT_OUT = HERE / ".work" / "differential"


# -- torch ----------------------------------------------------------------------------------------------------------
@dataclass
class TorchVerdict:
    status: str  # "scripted" | "rejected" | "import-error" | "build-error" | "no-answer" (timeout, crash)
    message: str = ""  # the first line of torch's error (or why there is no verdict)
    text: str = ""  # torch's whole error text (cut at 4,000 characters by the child)
    line: int | None = None  # the program's line torch's error points at
    kind: str = ""  # the exception's type name
    group: str = ""  # the message masked (see `mask`)

    @property
    def judged(self) -> bool:
        return self.status in ("scripted", "rejected")


def run_torch(programs: list[Program], directory: Path, jobs: int, timeout: float, log: Path) -> dict[str, TorchVerdict]:
    """Script every program of `directory` (written there as `<name>.py`) with torch, one attempt each."""
    import jitlint
    from jitlint.confirm import FileRequest, Root
    from jitlint.confirm.pool import probe_torch, run_requests
    from jitlint.targets.script.confirm import ScriptStrategy

    root = os.path.realpath(directory)
    requests = [
        FileRequest(Path(root) / f"{p.name}.py", p.name, root,
                    [Root(p.root, kind="class" if p.kind == "module" else "function")])
        for p in programs
    ]
    results = run_requests(
        requests, strategy=ScriptStrategy.name, strategy_file=ScriptStrategy.child, options={"max_attempts": 1},
        python=sys.executable, torch_version=probe_torch(sys.executable), jitlint_version=jitlint.__version__,
        timeout=timeout, factories={}, jobs=jobs, cache_dir=None, log_path=log,
    )
    verdicts = {}
    for result in results:
        name = result.request.module
        verdicts[name] = verdict_of(result.response, result.failure, str(result.request.path))
    return verdicts


def verdict_of(response: dict | None, failure: str, path: str) -> TorchVerdict:
    """The child's answer for one program (one root) as a verdict."""
    if response is None:
        return TorchVerdict("no-answer", failure)
    if response.get("import_error"):
        return TorchVerdict("import-error", response["import_error"])
    (root,) = response["roots"].values()
    if not root["built"]:
        return TorchVerdict("build-error", root.get("reason") or "not defined")
    if root["passed"]:
        return TorchVerdict("scripted")
    if not root["observations"]:
        return TorchVerdict("no-answer", "torch raised no error and did not script it")
    error = root["observations"][0]
    # The child locates errors by source text when no frame names a user file; across a batch that can find an
    # identical line of another program, so only a line in this program's own file counts.
    line = error["line"] if error.get("file") == path else None
    return TorchVerdict("rejected", error["message"], error.get("text") or "", line, error.get("kind", ""))


_EXCEPTION_LINE = re.compile(r"^(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception)\b.*$", re.MULTILINE)


def standalone_verdict(path: Path, timeout: float) -> TorchVerdict:
    """Run a program file as a script in a fresh interpreter (its `__main__` block scripts its root): the check
    that a verdict of the pool is what the file alone gives."""
    try:
        result = subprocess.run([sys.executable, "-W", "ignore", str(path)], capture_output=True, text=True,
                                timeout=timeout, cwd=path.parent)
    except subprocess.TimeoutExpired:
        return TorchVerdict("no-answer", "timed out")
    if result.returncode == 0:
        return TorchVerdict("scripted")
    # the exception's text follows the traceback: `RuntimeError: <torch's message, its frames and carets>`
    last = result.stderr[result.stderr.rfind("Traceback (most recent call last):"):]
    exception = _EXCEPTION_LINE.search(last)
    if exception is None:
        return TorchVerdict("no-answer", result.stderr.strip()[-300:])
    text = last[exception.start():]
    head, _, rest = text.partition(":")
    message = (rest.strip().splitlines() or [head])[0]
    line = re.search(rf'File "{re.escape(str(path))}", line (\d+)', text)
    return TorchVerdict("rejected", message, text, int(line.group(1)) if line else None, head.rsplit(".", 1)[-1])


# -- jitlint ----------------------------------------------------------------------------------------------------------
def jitlint_command() -> list[str]:
    """The jitlint of this interpreter's environment (the branch under test when run from its venv)."""
    exe = Path(sys.executable).with_name("jitlint")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "jitlint"]


def run_jitlint(directory: Path, jobs: int) -> tuple[dict[str, list[dict]], str]:
    """jitlint's findings per program name, one process over the whole directory; and its stderr."""
    command = [*jitlint_command(), "check", "--output-format", "json", "--no-cache", "--target", "script",
               "--exit-zero", "-j", str(jobs), "--config", str(directory / "pyproject.toml"), "."]
    result = subprocess.run(command, cwd=directory, capture_output=True, text=True)
    try:
        findings = json.loads(result.stdout)
    except json.JSONDecodeError:
        raise SystemExit(f"differential: jitlint failed (exit {result.returncode}): {result.stderr.strip()[-2000:]}")
    by_program: dict[str, list[dict]] = defaultdict(list)
    for finding in findings:
        by_program[Path(finding["filename"]).stem].append(finding)
    return by_program, result.stderr


# -- agreement ------------------------------------------------------------------------------------------------------
def statement_key(source: str):
    """A function of a line: the smallest statement holding it (for a compound statement, only its header lines
    count as the statement's)."""
    spans: list[tuple[int, int]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.stmt):
            continue
        end = node.end_lineno or node.lineno
        bodies = [getattr(node, name) for name in ("body", "orelse", "finalbody", "handlers")
                  if isinstance(getattr(node, name, None), list) and getattr(node, name)]
        if bodies:
            first = min(item.lineno for body in bodies for item in body)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.decorator_list:
                spans.append((min(d.lineno for d in node.decorator_list), node.lineno))
            end = max(node.lineno, first - 1)
        spans.append((node.lineno, end))

    def key(line: int):
        holding = [s for s in spans if s[0] <= line <= s[1]]
        return min(holding, key=lambda s: s[1] - s[0]) if holding else (line, line)

    return key


@dataclass
class Outcome:
    name: str
    kind: str  # "module" | "function"
    features: list[str]
    torch: TorchVerdict
    errors: list[dict] = field(default_factory=list)  # jitlint's error findings: code, line, message
    others: list[dict] = field(default_factory=list)  # its warnings and advice
    verdict: str = ""  # "agree" | "false-error" | "miss" | "wrong-line" | "not-judged"
    size: int = 0  # lines, to pick the smallest examples


def judge(program: Program, torch: TorchVerdict, findings: list[dict]) -> Outcome:
    errors = [{"code": f["code"], "line": f["location"]["row"], "message": f["message"]}
              for f in findings if f.get("severity") == "error"]
    others = [{"code": f["code"], "line": f["location"]["row"], "severity": f.get("severity")}
              for f in findings if f.get("severity") != "error"]
    outcome = Outcome(program.name, program.kind, program.features, torch, errors, others,
                      size=program.source.count("\n"))
    if torch.status == "rejected":
        torch.group = mask(torch.message or torch.kind, program_names(program.source))
    if not torch.judged:
        outcome.verdict = "not-judged"
    elif torch.status == "scripted":
        outcome.verdict = "agree" if not errors else "false-error"
    elif not errors:
        outcome.verdict = "miss"
    elif torch.line is None:
        outcome.verdict = "agree"
    else:
        key = statement_key(program.source)
        at = key(torch.line)
        outcome.verdict = "agree" if any(e["line"] == torch.line or key(e["line"]) == at for e in errors) \
            else "wrong-line"
    return outcome


_OPERATOR = re.compile(r"\b((?:aten|prim)::\w+)")
_QUOTED_NAME = re.compile(r"(['`])([A-Za-z_][\w.]*)\1")
TYPE_WORDS = {"Tensor", "int", "float", "bool", "str", "NoneType", "None", "number", "Device", "ScalarType",
              "Scalar", "Any", "complex", "Layout", "Generator", "Storage", "Stream", "MemoryFormat"}


# Words of torch's own messages that a program may also use as names: never masked.
TORCH_WORDS = {"size", "type", "value", "values", "valid", "dim", "input", "other", "self", "out", "list", "index",
               "key", "keys", "name", "mode", "state", "result", "count", "length", "weight", "items", "default", "t",
               "a", "b"}


def program_names(source: str) -> set[str]:
    """The names a program defines: variables, parameters, functions, classes, attributes it sets."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names - TYPE_WORDS - {"self"}


def mask(message: str, names: set[str] = frozenset()) -> str:
    """torch's first line with what varies between programs masked: quoted names, the program's own names,
    qualified names, numbers."""
    text = message.strip().splitlines()[0] if message.strip() else "(empty)"
    text = re.sub(r"__torch__(\.\w+)+", "__torch__.…", text)
    text = _QUOTED_NAME.sub(lambda m: m.group(0) if m.group(2) in TYPE_WORDS else f"{m.group(1)}…{m.group(1)}", text)
    text = re.sub(r'"[A-Za-z_]\w*"', '"…"', text)
    if names and "::" not in text:  # not an operator's schema
        names = names - TORCH_WORDS
        text = re.sub(r"(?<![\w.'`…])([A-Za-z_]\w*)(?![\w'`])",
                      lambda m: "…" if m.group(1) in names else m.group(1), text)
    text = re.sub(r"\bprog_\d+_\d+\b", "…", text)
    text = re.sub(r"(?<![\w.])\d+(\.\d+)?\b", "N", text)
    return text[:160]


def group_key(outcome: Outcome) -> str:
    if outcome.verdict == "false-error":
        return f"torch scripts it; jitlint {outcome.errors[0]['code']}"
    key = outcome.torch.group
    if key.startswith("Arguments for call are not valid") or key.startswith("Keyword argument"):
        operators = _OPERATOR.findall(outcome.torch.text)
        if operators:
            key += f" [{operators[0]}]"
    return key


def summarise(outcomes: list[Outcome]) -> dict:
    verdicts = Counter(o.verdict for o in outcomes)
    judged = [o for o in outcomes if o.verdict != "not-judged"]
    status = Counter(o.torch.status for o in outcomes)
    rejected = [o for o in judged if o.torch.status == "rejected"]
    agree = verdicts["agree"]
    false_by_code: Counter = Counter()
    for o in outcomes:
        if o.verdict == "false-error":
            for code in sorted({e["code"] for e in o.errors}):
                false_by_code[code] += 1
    groups: dict[str, dict] = {}
    for o in sorted((o for o in outcomes if o.verdict in ("false-error", "miss", "wrong-line")),
                    key=lambda o: (o.size, o.name)):
        g = groups.setdefault(group_key(o), {"count": 0, "verdicts": Counter(), "examples": []})
        g["count"] += 1
        g["verdicts"][o.verdict] += 1
        if len(g["examples"]) < 2:
            g["examples"].append(o.name)
    ordered = sorted(groups.items(), key=lambda item: (-item[1]["count"], item[0]))
    return {
        "programs": len(outcomes),
        "judged": len(judged),
        "torch": {"scripted": status["scripted"], "rejected": status["rejected"],
                  "rejected_without_line": sum(1 for o in rejected if o.torch.line is None),
                  "import_errors": status["import-error"], "build_errors": status["build-error"],
                  "no_answer": status["no-answer"]},
        "agreement": agree / len(judged) if judged else None,
        "agree": agree,
        "false_errors": verdicts["false-error"],
        "misses": verdicts["miss"],
        "wrong_lines": verdicts["wrong-line"],
        "rejected_share": len(rejected) / len(judged) if judged else None,
        "recall_on_rejected": (sum(1 for o in rejected if o.verdict == "agree") / len(rejected)) if rejected else None,
        "false_errors_by_code": dict(false_by_code.most_common()),
        "groups": [{"key": key, "count": g["count"], "verdicts": dict(g["verdicts"]), "examples": g["examples"]}
                   for key, g in ordered],
        "torch_messages": dict(Counter(o.torch.group for o in rejected).most_common()),
    }


# -- output -----------------------------------------------------------------------------------------------------------
def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:60].lower() or "group"


def save(out: Path, summary: dict, outcomes: list[Outcome], programs: dict[str, Program], meta: dict) -> None:
    """The report, every program's verdicts, and each group's examples (source + torch's text + findings)."""
    # a previous run's results go; nothing else in the directory is touched
    for name in ("groups", "not-judged"):
        shutil.rmtree(out / name, ignore_errors=True)
    for name in ("report.json", "programs.jsonl"):
        (out / name).unlink(missing_ok=True)
    (out / "groups").mkdir(parents=True)
    by_name = {o.name: o for o in outcomes}
    for number, group in enumerate(summary["groups"], 1):
        directory = out / "groups" / f"{number:03d}-{slug(group['key'])}"
        directory.mkdir()
        group["directory"] = str(directory)
        for name in group["examples"]:
            o = by_name[name]
            (directory / f"{name}.py").write_text(programs[name].source)
            notes = [f"group: {group['key']}", f"verdict: {o.verdict}",
                     f"torch: {o.torch.status}" + (f" at line {o.torch.line}" if o.torch.line else ""),
                     "jitlint errors:", *[f"  {e['line']}: {e['code']} {e['message']}" for e in o.errors],
                     f"features: {', '.join(o.features)}", "", "torch's message:", o.torch.text or o.torch.message]
            (directory / f"{name}.txt").write_text("\n".join(notes) + "\n")
    with open(out / "programs.jsonl", "w") as handle:
        for o in outcomes:
            record = asdict(o)
            record["torch"]["text"] = record["torch"]["text"][:1500]
            handle.write(json.dumps(record) + "\n")
    (out / "report.json").write_text(json.dumps({"meta": meta, **summary}, indent=2) + "\n")
    not_judged = [o for o in outcomes if o.verdict == "not-judged"]
    if not_judged:
        directory = out / "not-judged"
        directory.mkdir()
        for o in sorted(not_judged, key=lambda o: o.size)[:20]:
            (directory / f"{o.name}.py").write_text(programs[o.name].source)
            (directory / f"{o.name}.txt").write_text(f"{o.torch.status}: {o.torch.message}\n")


def percent(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def render(summary: dict, meta: dict, top: int) -> str:
    t = summary["torch"]
    lines = [
        f"differential (seed {meta['seed']}, {summary['programs']} programs; torch {meta['torch']}; "
        f"jitlint {meta['jitlint']})",
        f"torch: {t['scripted']} scripted, {t['rejected']} rejected ({t['rejected_without_line']} without a line); "
        f"not judged: {t['import_errors']} import errors, {t['build_errors']} build errors, "
        f"{t['no_answer']} without an answer",
        f"agreement: {summary['agree']}/{summary['judged']} ({percent(summary['agreement'])})",
        f"  false errors (torch scripts it, jitlint reports an error): {summary['false_errors']}",
        f"  misses (torch rejects it, jitlint reports no error):       {summary['misses']}",
        f"  wrong line (jitlint's errors are not at torch's line):     {summary['wrong_lines']}",
        f"  rejected share {percent(summary['rejected_share'])}; found at torch's line "
        f"{percent(summary['recall_on_rejected'])} of the rejected",
        f"time: generate {meta['seconds']['generate']:.0f} s, torch {meta['seconds']['torch']:.0f} s, "
        f"jitlint {meta['seconds']['jitlint']:.0f} s",
        "",
        "false errors by jitlint code: " + (", ".join(f"{c} {n}" for c, n in summary["false_errors_by_code"].items())
                                            or "none"),
        "",
        f"disagreements by torch's message (top {top}; counts: miss / wrong line / false error):",
    ]
    for group in summary["groups"][:top]:
        v = group["verdicts"]
        counts = f"{v.get('miss', 0)}/{v.get('wrong-line', 0)}/{v.get('false-error', 0)}"
        lines.append(f"  {group['count']:5d}  [{counts:>9}]  {group['key']}")
        if group.get("directory"):
            lines.append(f"{'':19}{group['directory']}/{group['examples'][0]}.py")
    if len(summary["groups"]) > top:
        lines.append(f"  ... {len(summary['groups']) - top} more groups in report.json")
    return "\n".join(lines)


def jitlint_revision() -> str:
    import jitlint

    root = Path(jitlint.__file__).resolve().parents[2]
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--", "src"], capture_output=True,
                               text=True).stdout.strip()
    except OSError:
        return jitlint.__version__
    return f"{jitlint.__version__} @ {head or '?'}{' (src modified)' if dirty else ''}"


def run(seed: int, count: int, out: Path | None, jobs: int, timeout: float, keep: bool = False,
        start: int = 0, command: str = "") -> tuple[dict, dict, list[Outcome]]:
    started = time.perf_counter()
    programs = [Generator(seed, index).program() for index in range(start, start + count)]
    by_name = {p.name: p for p in programs}
    generated = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="jitlint-differential-") as temporary:
        batch = Path(temporary) / "batch"
        batch.mkdir()
        (batch / "pyproject.toml").write_text("[tool.jitlint]\n")
        for p in programs:
            (batch / f"{p.name}.py").write_text(p.source)
        verdicts = run_torch(programs, batch, jobs, timeout, Path(temporary) / "torch-output.log")
        torched = time.perf_counter()
        findings, stderr = run_jitlint(batch, jobs)
        linted = time.perf_counter()
        if keep and out is not None:
            out.mkdir(parents=True, exist_ok=True)
            shutil.copytree(batch, out.parent / (out.name + "-batch"), dirs_exist_ok=True)
    outcomes = [judge(p, verdicts.get(p.name, TorchVerdict("no-answer", "no result")), findings.get(p.name, []))
                for p in programs]
    summary = summarise(outcomes)
    internal = [f for fs in findings.values() for f in fs if f["code"] in ("JIT001", "JIT002", "JIT003")]
    import torch

    meta = {"seed": seed, "count": count, "start": start, "torch": torch.__version__, "jitlint": jitlint_revision(),
            "command": command or f"python bench/differential.py --seed {seed} --count {count} --start {start}",
            "seconds": {"generate": generated - started, "torch": torched - generated, "jitlint": linted - torched},
            "jitlint_internal_findings": [{"file": f["filename"], "code": f["code"], "message": f["message"]}
                                          for f in internal][:20],
            "jitlint_stderr": stderr.strip()[-2000:]}
    if out is not None:
        save(out, summary, outcomes, by_name, meta)
    return summary, meta, outcomes


def cross_check(outcomes: list[Outcome], seed: int, sample: int, jobs: int, timeout: float) -> dict:
    """Run `sample` programs (spread over the batch) each as a script in a fresh interpreter and compare with the
    pool's verdicts: status, torch's first line and torch's line."""
    from concurrent.futures import ThreadPoolExecutor

    judged = [o for o in outcomes if o.torch.judged]
    step = max(1, len(judged) // max(1, sample))
    chosen = judged[::step][:sample]
    with tempfile.TemporaryDirectory(prefix="jitlint-differential-alone-") as temporary:
        def alone(o: Outcome) -> TorchVerdict:
            program = Generator(seed, int(o.name.rsplit("_", 1)[1])).program()
            path = Path(temporary) / f"{o.name}.py"
            path.write_text(program.source)
            return standalone_verdict(path, timeout)

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            verdicts = list(pool.map(alone, chosen))
    # the pool imports a program as a module of its own name; run as a script its classes are `__torch__.X`
    pooled = lambda o: o.torch.message.strip().replace(f"__torch__.{o.name}.", "__torch__.")  # noqa: E731
    differ = [{"program": o.name, "pool": [o.torch.status, o.torch.line, o.torch.message[:120]],
               "alone": [v.status, v.line, v.message[:120]]}
              for o, v in zip(chosen, verdicts)
              if (o.torch.status, o.torch.line, pooled(o)) != (v.status, v.line, v.message.strip())]
    return {"checked": len(chosen), "same": len(chosen) - len(differ), "differ": differ}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--start", type=int, default=0, help="the index of the first program (default 0)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"default {DEFAULT_OUT.relative_to(HERE.parent)}")
    parser.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds torch may take on one program")
    parser.add_argument("--top", type=int, default=30, help="groups shown in the text report")
    parser.add_argument("--keep", action="store_true", help="also keep the whole batch next to --out")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--standalone", type=int, default=0, metavar="N",
                        help="also run N of the programs each as a script in a fresh interpreter and compare")
    args = parser.parse_args(argv)
    command = " ".join(["python bench/differential.py", *(sys.argv[1:] if argv is None else argv)])
    summary, meta, outcomes = run(args.seed, args.count, args.out, args.jobs, args.timeout, args.keep, args.start,
                                  command)
    if args.standalone:
        meta["standalone"] = cross_check(outcomes, args.seed, args.standalone, args.jobs, args.timeout)
        if args.out is not None:
            report = json.loads((args.out / "report.json").read_text())
            report["meta"]["standalone"] = meta["standalone"]
            (args.out / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    if args.json:
        print(json.dumps({"meta": meta, **summary}, indent=2))
    else:
        print(render(summary, meta, args.top))
        if meta["jitlint_internal_findings"]:
            print("\njitlint could not check some programs:")
            for f in meta["jitlint_internal_findings"]:
                print(f"  {f['file']}: {f['code']} {f['message']}")
        if args.standalone:
            check = meta["standalone"]
            print(f"\nstandalone check: {check['same']}/{check['checked']} programs give the same verdict, message "
                  "and line when run alone")
            for item in check["differ"]:
                print(f"  {item['program']}: pool {item['pool']}, alone {item['alone']}")
        print(f"\nreport, groups and examples: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

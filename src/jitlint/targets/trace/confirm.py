"""The trace target's confirmer (`--dynamic --target trace`): `torch.jit.trace` on the linted module classes with
their declared example inputs, compared with eager on a second set, and each trace finding marked.

Tracing needs example inputs, which the source does not hold: `[tool.jitlint.trace] inputs` (or the shared
`[tool.jitlint.dynamic] inputs`) maps a class ("pkg.models:Net") to a function returning them, and
`compare-inputs` to one returning the second set (without it, the inputs function is called again). Each such
class is traced in a child process of its own (the user's interpreter), with the time limit of
`[tool.jitlint.dynamic] timeout`; the child side is `confirm_child.py` (see there what it observes).

A finding of the trace target is then, for the classes whose trace runs its code:
- `confirmed` when torch issued a TracerWarning at a line of the finding (also one its default filter hides: the
  detail says so), or the graph traced from the second set differs there, or the traced module fails there; for an
  error (TRC1xx), when torch.jit.trace failed with the text the rule's page quotes;
- `not-reproduced` when every such class traced and equalled eager on both sets with no warning at its lines (for
  an error: traced at all);
- `unverified` otherwise, with the reason: no class with declared inputs reaches it, a class was not built, the
  traced module differs from eager elsewhere, or the finding is advice (TRC3xx).

What torch said that no finding explains is reported: TRC010 at the line of a TracerWarning or of a difference
(or at the class when the difference names no line), TRC000 for a trace error (at the class: torch names no line).

The child side is written for the shared confirmer host (`run(module, inputs, ctx)`); until that host runs it,
`confirm_driver.py` is the child process and `run_dynamic` the parent.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from jitlint import pages
from jitlint.codes import TARGET_OF
from jitlint.finding import Confirmation, Finding, Location
from jitlint.names import module_name_for

CHILD = Path(__file__).with_name("confirm_child.py")
DRIVER = Path(__file__).with_name("confirm_driver.py")
MARKER = "@@JITLINT-TRACE@@"
TRACE_ERROR = "TRC000"
TRACE_WARNING = "TRC010"


def real(path) -> str:
    return os.path.realpath(str(path))


@dataclasses.dataclass
class TraceRoot:
    """A module class of the linted files, as the trace confirmer builds it."""

    module: object  # the project's ModuleInfo
    name: str
    key: str  # "pkg.module:Class", as `inputs` names it


def _roots(project) -> dict[tuple[str, str], TraceRoot]:
    found = {}
    for module in project.modules.values():
        if not module.linted:
            continue
        dotted = module_name_for(module.path)[0]
        for name, cls in module.classes.items():
            if project.is_module_class(cls):
                found[(real(module.path), name)] = TraceRoot(module, name, f"{dotted}:{name}")
    return found


def _reaching(captured, function) -> set[tuple[str, str]]:
    """(real path, name) of the linted classes whose trace runs `function`: the owners of each function up its
    chain of call sites."""
    found: set[tuple[str, str]] = set()
    for current in captured.upstream(function.info):
        entry = captured.get(current.node)
        for owner in entry.owners if entry else []:
            if owner.module.linted:
                found.add((real(owner.module.path), owner.name))
    return found


def _trace_settings(settings):
    config = getattr(settings, "config", None)
    if config is None:
        from jitlint.targets.trace.settings import TraceSettings

        return TraceSettings()
    return config.settings("trace")


def _inputs(settings) -> dict[str, str]:
    return {**getattr(settings, "inputs", {}), **_trace_settings(settings).inputs}


class TraceStrategy:
    """How the trace target confirms its findings: what to trace, with which options, and how to mark."""

    name = "trace"
    child = CHILD

    def requests(self, run, settings) -> list[TraceRoot]:
        """Every linted module class with declared example inputs (what no rule saw is reported too)."""
        inputs = _inputs(settings)
        return [root for key, root in sorted(_roots(run.project).items()) if root.key in inputs]

    def options(self, run, settings) -> dict:
        trace = _trace_settings(settings)
        return {"strict": trace.strict, "compare": dict(trace.compare_inputs)}

    def mark(self, run, results: dict, torch_version: str, settings) -> list[Finding]:
        roots = _roots(run.project)
        captured = run.captured.get("trace")
        version = torch_version if results else "n/a"
        out = []
        explained: set[tuple[str, str]] = set()  # roots where a finding was confirmed
        for finding in run.findings:
            if TARGET_OF.get(finding.code) != "trace" or finding.context is None:
                out.append(finding)
                continue
            reached = _reached(finding, captured, roots)
            status, detail = _judge(finding, reached, roots, results, version)
            if status == "confirmed":
                explained |= reached
            out.append(dataclasses.replace(finding, confirmation=Confirmation(status, detail, version)))
        out.extend(_unexplained(results, run.project, roots, version, explained))
        out.sort(key=Finding.sort_key)
        return out


def _reached(finding: Finding, captured, roots) -> set[tuple[str, str]]:
    function = getattr(finding.context, "function", None)
    if function is None or captured is None:
        name = (finding.context.scope or "").split(".")[0]
        key = (real(finding.context.path), name)
        return {key} if key in roots else set()
    return _reaching(captured, function) & set(roots)


def _short(text: str, limit: int = 110) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _page_error_in(code: str, text: str) -> bool:
    expected = " ".join(pages.torch_error(code).split())
    return bool(expected) and expected[:60] in " ".join(text.split())


def _judge(finding: Finding, reached: set, roots: dict, results: dict, version: str) -> tuple[str, str]:
    if finding.severity == "info":
        return "unverified", "advice: nothing for torch to reproduce"
    if not reached:
        return "unverified", "no module class of the linted files reaches this code"
    checked = [key for key in sorted(reached) if key in results]
    if not checked:
        name = roots[sorted(reached)[0]].key
        return "unverified", f"needs example inputs: name a function returning them for `{name}` in " \
                             "[tool.jitlint.trace] inputs"
    path = real(finding.context.path)
    rows = _rows(finding, roots[checked[0]].module if checked else None, reached, roots)
    here = [(key, observation) for key in checked for observation in results[key].get("observations", [])
            if observation.get("file") is not None and real(observation["file"]) == path
            and observation.get("line") in rows]
    for _key, observation in here:
        observation["used"] = True
    here.sort(key=lambda item: item[1]["kind"] != "warning")  # torch's own warning first
    if here:
        key, observation = here[0]
        if observation["kind"] == "warning":
            hidden = " (hidden by torch's default filter)" if observation.get("hidden") else ""
            return "confirmed", (f"torch {version} warns here tracing {roots[key].name}{hidden}: "
                                 f"{_short(observation['message'])}")
        return "confirmed", f"torch {version}, tracing {roots[key].name}: {_short(observation['message'])}"
    if finding.severity == "error":
        for key in checked:
            for observation in results[key].get("observations", []):
                if observation["kind"] == "error" and _page_error_in(finding.code, observation["message"]):
                    observation["used"] = True
                    return "confirmed", (f"torch {version} tracing {roots[key].name}: "
                                         f"{_short(observation['message'])}")
    for key in checked:
        answer = results[key]
        if not answer.get("built"):
            return "unverified", answer.get("reason") or f"{roots[key].name} was not built"
        if "verdict" not in answer:
            return "unverified", answer.get("reason") or f"{roots[key].name} was not traced"
    if finding.severity == "error":
        traced = [key for key in checked if results[key].get("verdict") != "rejects"]
        if traced:
            return "not-reproduced", f"torch {version} traced {', '.join(roots[k].name for k in traced)}"
        return "unverified", "masked: torch.jit.trace failed with another error first"
    wrong = [key for key in checked if results[key].get("verdict") in ("changes", "breaks", "rejects")]
    if wrong:
        return "unverified", (f"the trace of {roots[wrong[0]].name} is wrong or failed, at lines no observation "
                              "ties to this one")
    names = ", ".join(roots[key].name for key in checked)
    return "not-reproduced", (f"torch {version} traced {names} with no warning here, and the traced module equals "
                              "eager on the second inputs")


def _rows(finding: Finding, _module, reached: set, roots: dict) -> set[int]:
    """The lines where torch's observations belong to the finding: its own, and for a frozen branch or loop
    (TRC201, TRC202 on a statement's header) the block below the header, where the frozen side's operations are."""
    rows = set(range(finding.location.row, finding.end_location.row + 1))
    if finding.code not in ("TRC201", "TRC202"):
        return rows
    lines = (finding.context.line_text and _source_lines(finding.context.path)) or []
    start = finding.context.statement_lines[1]
    if not lines or start > len(lines):
        return rows
    header = lines[finding.context.statement_lines[0] - 1]
    if not header.rstrip().endswith(":"):
        return rows
    indent = len(header) - len(header.lstrip())
    for number in range(start + 1, len(lines) + 1):
        text = lines[number - 1]
        if text.strip() and len(text) - len(text.lstrip()) <= indent:
            break
        rows.add(number)
    return rows


def _source_lines(path) -> list[str]:
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()
    except OSError:
        return []


def _definition_line(module, name: str) -> int:
    match = re.search(rf"^class\s+{re.escape(name)}\b", module.tree.code, re.MULTILINE)
    return module.tree.code.count("\n", 0, match.start()) + 1 if match else 1


def _unexplained(results: dict, project, roots: dict, version: str, explained: set) -> list[Finding]:
    """What torch said that no finding explains: TRC010 (warnings, differences), TRC000 (trace errors). A wrong
    result that names no line is explained by any confirmed finding of its class."""
    from jitlint.rules import RULES_BY_CODE

    linted = {real(m.path): m for m in project.modules.values() if m.linted}
    found: dict[tuple, Finding] = {}
    for key, answer in sorted(results.items()):
        for observation in answer.get("observations", []):
            if observation.get("used"):
                continue
            kind = observation["kind"]
            if kind in ("mismatch", "breaks") and observation.get("file") is None and (key in explained or any(
                    o["kind"] in ("diverges", "breaks") and o.get("file") for o in answer["observations"])):
                continue  # a confirmed finding, or the lines where it diverges, explain it
            rule = RULES_BY_CODE[TRACE_ERROR if kind == "error" else TRACE_WARNING]
            file = observation.get("file")
            if file is not None and real(file) in linted:
                module, row, where = linted[real(file)], observation.get("line") or 1, ""
            else:
                module = roots[key].module
                row = _definition_line(module, key[1])
                where = f" (torch names no line; it was tracing `{key[1]}`)"
            hidden = " (hidden by torch's default filter)" if observation.get("hidden") else ""
            what = {"warning": f"torch.jit.trace warns here{hidden}", "error": "torch.jit.trace rejects this",
                    "diverges": "the traced graph depends on the example here",
                    "breaks": "the traced module fails here", "mismatch": "the traced module is wrong"}[kind]
            location = Location(row, 1)
            finding = Finding(rule.code, rule.name, f"{what}: {observation['message']}{where}; no static rule "
                              "explains it yet", rule.severity, module.display_name, location, location,
                              url=pages.url(rule.code),
                              confirmation=Confirmation("confirmed", f"torch {version}: {_short(observation['message'])}",
                                                        version))
            found.setdefault((finding.filename, row, rule.code), finding)
    return list(found.values())


# -- the parent process, until the shared confirmer host runs the strategy ----------------------------------------
def _version(python: str) -> str:
    from jitlint.dynamic import DynamicError

    try:
        done = subprocess.run([python, "-c", "import importlib.metadata as m, sys; "
                               "sys.stdout.write(m.version('torch').split('+')[0])"],
                              capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        done = None
    if done is None or done.returncode != 0 or not done.stdout.strip():
        raise DynamicError(f"--dynamic --target trace: torch is not installed in {python}")
    return done.stdout.strip()


def _run_root(root: TraceRoot, strategy: TraceStrategy, run, settings, user_roots: list[str]) -> dict:
    dotted, package_root = module_name_for(root.module.path)
    inputs = _inputs(settings)
    log = Path(settings.log_path)
    log.parent.mkdir(parents=True, exist_ok=True)
    job = {"root": str(Path(package_root).resolve()), "module": dotted, "name": root.name,
           "inputs": inputs[root.key], "factory": settings.factories.get(root.key),
           "options": {**strategy.options(run, settings), "compare": {
               root.name: _trace_settings(settings).compare_inputs.get(root.key)}},
           "user_roots": user_roots, "strategy": str(strategy.child), "log": str(log.resolve())}
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([job["root"], *filter(None, [env.get("PYTHONPATH")])])
    try:
        done = subprocess.run([settings.python, str(DRIVER)], input=json.dumps(job), capture_output=True, text=True,
                              timeout=settings.timeout, env=env, cwd=job["root"])
    except subprocess.TimeoutExpired:
        return {"built": False, "reason": f"tracing {root.name} took over {settings.timeout:g} s"}
    if MARKER not in done.stdout:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"built": False, "reason": f"the trace child for {root.name} died: {tail}"}
    answer = json.loads(done.stdout.split(MARKER, 1)[1])
    if answer.get("import_error"):
        return {"built": False, "reason": f"importing it failed: {answer['import_error']}"}
    return answer["roots"][root.name]


def run_dynamic(run, settings) -> list[Finding]:
    """Mark the trace findings of `run` with what torch.jit.trace does (see the module docstring)."""
    strategy = TraceStrategy()
    requests = strategy.requests(run, settings)
    torch_version = _version(settings.python) if requests else ""
    user_roots = sorted({real(module_name_for(m.path)[1]) for m in run.project.modules.values() if m.linted})
    with ThreadPoolExecutor(max_workers=max(1, min(settings.jobs, len(requests) or 1))) as pool:
        answers = list(pool.map(lambda root: _run_root(root, strategy, run, settings, user_roots), requests))
    results = {(real(root.module.path), root.name): answer for root, answer in zip(requests, answers)}
    return strategy.mark(run, results, torch_version, settings)

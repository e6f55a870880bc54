"""The compile target's confirmer (`--dynamic --target compile`): `torch.compile(backend="eager")` on the linted
module classes with their declared example inputs, over a few calls, and each compile finding marked.

torch.compile needs inputs, which the source does not hold: `[tool.jitlint.dynamic] inputs` maps a class
("pkg.models:Net") to a function returning one call's arguments ("pkg.examples:net_inputs": a tuple of positional
arguments, or one tensor); it is called again for each further call (`calls`, default 3), so a function that draws
fresh values (a new batch size, a new string) shows the recompiles. Each class that a compile finding reaches is
compiled in a child process of its own, in the mode the run judges (`[tool.jitlint.compile]`), and every graph
break is collected, not only the first: Dynamo logs each one (`TORCH_LOGS=graph_breaks`), with the user code
traceback, and each recompile with the guard that failed.

A finding of the compile target is then:
- `confirmed` when torch broke the graph (or, under `fullgraph=True`, raised) at a line of its statement (any frame
  of the break's user-code traceback: a break inside the standard library or torch names the user's call site),
  or, for a recompile rule, when a guard on its attribute or argument failed in its function;
- `not-reproduced` when every class that reaches it compiled without a break or recompile there;
- `unverified` with the reason otherwise: "needs example inputs", a class that could not be built, "masked" when
  Dynamo gave up the function (or `fullgraph=True` stopped) before the line.

What torch broke on that no finding explains becomes a DYN000 finding at the line torch names.

The strategy is shaped for the confirmer host (`jitlint.confirm`: `requests`, `options`, `mark`, and the child side
`confirm_child.run(target, inputs, ctx)`); `run_dynamic` drives it with the child's own stand-in for the host's
import-and-build (`confirm_child.py` as a script).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from jitlint import pages
from jitlint.codes import TARGET_OF
from jitlint.finding import Confirmation, Finding, Location
from jitlint.names import module_name_for

CHILD = Path(__file__).with_name("confirm_child.py")
MARKER = "@@JITLINT-COMPILE@@"
UNEXPLAINED = "DYN000"


def real(path) -> str:
    return os.path.realpath(str(path))


@dataclass
class Root:
    """A module class of the linted files, as torch.compile would be given it."""

    module: object  # the project's ModuleInfo
    name: str
    key: str  # "pkg.module:Class", as `inputs` and `factories` name it

    @property
    def address(self) -> tuple[str, str]:
        return real(self.module.path), self.name


@dataclass
class Outcome:
    """What the child said of one root."""

    built: bool
    reason: str
    observations: list[dict] = field(default_factory=list)


def _roots(project) -> dict[tuple[str, str], Root]:
    found = {}
    for module in project.modules.values():
        if not module.linted:
            continue
        dotted = module_name_for(module.path)[0]
        for name, cls in module.classes.items():
            if project.is_module_class(cls):
                root = Root(module, name, f"{dotted}:{name}")
                found[root.address] = root
    return found


def _reaching(finding: Finding, captured, roots: dict) -> set[tuple[str, str]]:
    """The linted module classes whose compiled forward runs the finding's code (the owners up its call chain)."""
    function = getattr(finding.context, "function", None)
    if function is None:
        return set()
    found = set()
    for current in captured.upstream(function.info):
        entry = captured.get(current.node)
        for owner in entry.owners if entry else []:
            key = (real(owner.module.path), owner.name)
            if key in roots:
                found.add(key)
    return found


def _ours(run) -> list[Finding]:
    return [f for f in run.findings if TARGET_OF.get(f.code) == "compile" and f.context is not None]


def _short(text: str, limit: int = 100) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


class CompileStrategy:
    name = "compile"
    child = CHILD
    isolate_roots = True  # each model in a fresh interpreter: Dynamo's caches and recompile counts are per process

    def requests(self, run, settings) -> list[Root]:
        """The module classes with declared example inputs that a compile finding reaches."""
        roots = _roots(run.project)
        captured = run.captured["compile"]
        wanted = {key for finding in _ours(run) for key in _reaching(finding, captured, roots)
                  if roots[key].key in settings.inputs}
        return [roots[key] for key in sorted(wanted)]

    def options(self, run, settings) -> dict:
        judged = run.captured["compile"].policy.settings
        return {"fullgraph": judged.fullgraph, "capture_scalar_outputs": judged.capture_scalar_outputs,
                "capture_dynamic_output_shape_ops": judged.capture_dynamic_output_shape_ops,
                "dynamic": judged.dynamic, "calls": 3,
                "user_files": sorted(real(m.path) for m in run.project.modules.values() if m.linted)}

    def mark(self, run, results: dict, torch_version: str, settings) -> list[Finding]:
        roots = _roots(run.project)
        captured = run.captured["compile"]
        version = torch_version if results else "n/a"
        ours = {id(finding) for finding in _ours(run)}
        used: set[tuple] = set()
        marked = []
        for finding in run.findings:
            if id(finding) not in ours:
                marked.append(finding)
                continue
            reached = _reaching(finding, captured, roots)
            status, detail = _judge(finding, reached, roots, results, version, used)
            marked.append(dataclasses.replace(finding, confirmation=Confirmation(status, detail, version)))
        marked.extend(_unexplained(results, used, run.project, version))
        marked.sort(key=Finding.sort_key)
        return marked


def _function_lines(finding: Finding) -> range:
    function = getattr(finding.context, "function", None)
    node = function.info.node if function is not None else None
    if node is None:
        return range(finding.location.row, finding.end_location.row + 1)
    code = function.info.module.tree.code_for_node(node)
    first = finding.context.statement_lines[0]
    # The function's own span: from its `def` (found above the finding) for as many lines as its code has.
    text = function.info.module.tree.code.splitlines()
    start = next((row for row in range(first, 0, -1)
                  if re.match(rf"\s*(async\s+)?def\s+{re.escape(node.name.value)}\b", text[row - 1])), first)
    return range(start, start + code.strip("\n").count("\n") + 1)


def _judge(finding: Finding, reached: set, roots: dict, results: dict, version: str,
           used: set) -> tuple[str, str]:
    if not reached:
        return "unverified", "no module class of the linted files reaches this code"
    checked = [key for key in sorted(reached) if key in results]
    if not checked:
        return "unverified", (f"needs example inputs: name a function returning them for "
                              f"`{roots[sorted(reached)[0]].key}` in [tool.jitlint.dynamic] inputs")
    path = real(finding.context.path)
    first, last = finding.context.statement_lines
    lines = set(range(min(first, finding.location.row), max(last, finding.end_location.row) + 1))
    recompile = finding.code.startswith("DYN2")
    span = _function_lines(finding) if recompile else range(0)
    name = re.search(r"`(?:self\.)?(\w+)`", finding.message)
    for key in checked:
        for index, observation in enumerate(results[key].observations):
            frames = [(real(file), line) for file, line in observation.get("frames") or []]
            if observation["kind"] in ("break", "error"):
                if not recompile and any(file == path and line in lines for file, line in frames):
                    used.add((key, index))
                    return "confirmed", f"torch {version}: {_short(observation['message'])}"
            elif observation["kind"] == "recompile" and recompile:
                at = [line for file, line in frames if file == path]
                guard = observation["message"]
                if at and at[-1] in span and (name is None or name.group(1) in guard):
                    used.add((key, index))
                    limit = any(item["kind"] == "recompile-limit" for item in results[key].observations)
                    return "confirmed", (f"torch {version}: recompiled on `{_short(guard, 60)}`"
                                         + (", until the recompile limit" if limit else ""))
    for key in checked:
        outcome = results[key]
        if not outcome.built:
            return "unverified", outcome.reason or f"{roots[key].name} was not compiled"
    for key in checked:
        for observation in results[key].observations:
            if observation.get("eager") or observation["kind"] == "error":
                where = f" at line {observation['line']}" if observation.get("line") else ""
                return "unverified", (f"masked: torch.compile gave up {roots[key].name}'s function{where} first "
                                      f"({_short(observation['message'], 60)})")
    names = ", ".join(roots[key].name for key in checked)
    what = "recompiled there" if recompile else "broke the graph there"
    return "not-reproduced", f"torch {version} compiled {names} with the declared inputs and never {what}"


def _unexplained(results: dict, used: set, project, version: str) -> list[Finding]:
    """Breaks and fullgraph errors at a line of the linted files that no finding explains: DYN000 findings."""
    from jitlint.rules import RULES_BY_CODE

    rule = RULES_BY_CODE[UNEXPLAINED]
    linted = {real(m.path): m for m in project.modules.values() if m.linted}
    found: dict[tuple, Finding] = {}
    for key, outcome in results.items():
        for index, observation in enumerate(outcome.observations):
            if (key, index) in used or observation["kind"] not in ("break", "error"):
                continue
            file, line = observation.get("file"), observation.get("line")
            if file is None or real(file) not in linted:
                continue
            module = linted[real(file)]
            location = Location(line or 1, 1)
            what = "raises here (`fullgraph=True`)" if observation["kind"] == "error" else "breaks the graph here"
            finding = Finding(
                rule.code, rule.name, f"torch.compile {what}: {observation['message']}; no static rule explains it yet",
                rule.severity, module.display_name, location, location, url=pages.url(rule.code),
                confirmation=Confirmation("confirmed", f"torch {version}: {_short(observation['message'])}", version),
            )
            found.setdefault((finding.filename, finding.location.row, observation["message"]), finding)
    return list(found.values())


# -- the stand-in for the confirmer host ----------------------------------------------------------------------------
def _compile_root(root: Root, settings, options: dict) -> Outcome:
    dotted, import_root = module_name_for(root.module.path)
    job = {"module": dotted, "cls": root.name, "root": str(Path(import_root).resolve()),
           "inputs": settings.inputs[root.key], "factory": settings.factories.get(root.key), "options": options}
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([job["root"], *filter(None, [env.get("PYTHONPATH")])])
    try:
        done = subprocess.run([settings.python, str(CHILD)], input=json.dumps(job), capture_output=True, text=True,
                              timeout=settings.timeout, env=env, cwd=job["root"])
    except subprocess.TimeoutExpired:
        return Outcome(False, f"compiling {root.name} took over {settings.timeout:g} s")
    if MARKER not in done.stdout:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return Outcome(False, f"the compile child for {root.name} died: {tail}")
    answer = json.loads(done.stdout.split(MARKER, 1)[1])
    return Outcome(answer.get("built", False), answer.get("reason", ""), answer.get("observations", []))


def _torch_version(python: str) -> str:
    done = subprocess.run([python, "-c", "import importlib.metadata as m, sys; "
                           "sys.stdout.write(m.version('torch').split('+')[0])"],
                          capture_output=True, text=True, timeout=180)
    if done.returncode != 0 or not done.stdout.strip():
        from jitlint.confirm import ConfirmError

        raise ConfirmError(f"--dynamic --target compile: torch is not installed in {python}")
    return done.stdout.strip()


def run_dynamic(run, settings) -> list[Finding]:
    """Mark the compile findings of `run` with what torch.compile does (see the module docstring)."""
    strategy = CompileStrategy()
    wanted = strategy.requests(run, settings)
    version = _torch_version(settings.python) if wanted else ""
    options = strategy.options(run, settings)
    with ThreadPoolExecutor(max_workers=max(1, min(settings.jobs, len(wanted) or 1))) as pool:
        outcomes = list(pool.map(lambda root: _compile_root(root, settings, options), wanted))
    results = {root.address: outcome for root, outcome in zip(wanted, outcomes)}
    return strategy.mark(run, results, version, settings)

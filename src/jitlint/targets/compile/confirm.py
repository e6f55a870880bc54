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

`CompileStrategy` is the parent side of a strategy of the confirmer host (`jitlint.confirm`: it imports and builds
each root and its inputs in a child process of its own); `confirm_child.py` (`run(target, inputs, ctx)`) its child
side.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from jitlint import pages
from jitlint.codes import TARGET_OF
from jitlint.confirm import (Results, Root, RootOutcome, Strategy, file_request, module_roots, reached_roots,
                             real)
from jitlint.finding import Confirmation, Finding, Location

UNEXPLAINED = "DYN000"


def _ours(run) -> list[Finding]:
    return [f for f in run.findings if TARGET_OF.get(f.code) == "compile" and f.context is not None]


def _short(text: str, limit: int = 100) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


class CompileStrategy(Strategy):
    """How the compile target confirms its findings: which models to compile, in which mode, and how to mark."""

    name = "compile"
    child = Path(__file__).with_name("confirm_child.py")
    isolate_roots = True  # each model in a fresh interpreter: Dynamo's caches and recompile counts are per process

    def requests(self, run, settings):
        """The module classes with declared example inputs that a compile finding reaches."""
        roots = module_roots(run.project)
        captured = run.captured["compile"]
        wanted = {key for finding in _ours(run) for key in reached_roots(finding, captured, roots)
                  if roots[key].key in settings.inputs}
        return [file_request(run.project, roots[key].module,
                             [Root(roots[key].name, inputs=settings.inputs[roots[key].key])])
                for key in sorted(wanted)]

    def options(self, run, settings) -> dict:
        judged = run.captured["compile"].policy.settings
        return {"fullgraph": judged.fullgraph, "capture_scalar_outputs": judged.capture_scalar_outputs,
                "capture_dynamic_output_shape_ops": judged.capture_dynamic_output_shape_ops,
                "dynamic": judged.dynamic, "calls": 3,
                "user_files": sorted(real(m.path) for m in run.project.modules.values() if m.linted)}

    def mark(self, run, results: Results, torch_version: str, settings) -> list[Finding]:
        roots = module_roots(run.project)
        captured = run.captured["compile"]
        answers = results.roots
        version = torch_version if answers else "n/a"
        ours = {id(finding) for finding in _ours(run)}
        out = []
        for finding in run.findings:
            if id(finding) not in ours:
                out.append(finding)
                continue
            reached = reached_roots(finding, captured, roots)
            status, detail = _judge(finding, reached, roots, answers, version)
            out.append(dataclasses.replace(finding, confirmation=Confirmation(status, detail, version)))
        out.extend(_unexplained(answers, run.project, version))
        out.sort(key=Finding.sort_key)
        return out


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


def _frames(observation) -> list[tuple[str, int]]:
    return [(real(file), line) for file, line in observation.details.get("frames") or []]


def _judge(finding: Finding, reached: set, roots: dict, answers: dict[tuple[str, str], RootOutcome],
           version: str) -> tuple[str, str]:
    if not reached:
        return "unverified", "no module class of the linted files reaches this code"
    checked = [key for key in sorted(reached) if key in answers]
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
        for observation in answers[key].observations:
            frames = _frames(observation)
            if observation.kind in ("break", "error"):
                if not recompile and any(file == path and line in lines for file, line in frames):
                    observation.used = True
                    return "confirmed", f"torch {version}: {_short(observation.message)}"
            elif observation.kind == "recompile" and recompile:
                at = [line for file, line in frames if file == path]
                guard = observation.message
                if at and at[-1] in span and (name is None or name.group(1) in guard):
                    observation.used = True
                    limit = any(item.kind == "recompile-limit" for item in answers[key].observations)
                    return "confirmed", (f"torch {version}: recompiled on `{_short(guard, 60)}`"
                                         + (", until the recompile limit" if limit else ""))
    for key in checked:
        outcome = answers[key]
        if not outcome.built:
            return "unverified", outcome.reason or f"{roots[key].name} was not compiled"
    for key in checked:
        for observation in answers[key].observations:
            if observation.details.get("eager") or observation.kind == "error":
                where = f" at line {observation.line}" if observation.line else ""
                return "unverified", (f"masked: torch.compile gave up {roots[key].name}'s function{where} first "
                                      f"({_short(observation.message, 60)})")
    names = ", ".join(roots[key].name for key in checked)
    what = "recompiled there" if recompile else "broke the graph there"
    return "not-reproduced", f"torch {version} compiled {names} with the declared inputs and never {what}"


def _unexplained(answers: dict[tuple[str, str], RootOutcome], project, version: str) -> list[Finding]:
    """Breaks and fullgraph errors at a line of the linted files that no finding explains: DYN000 findings."""
    from jitlint.rules import RULES_BY_CODE

    rule = RULES_BY_CODE[UNEXPLAINED]
    linted = {real(m.path): m for m in project.modules.values() if m.linted}
    found: dict[tuple, Finding] = {}
    for outcome in answers.values():
        for observation in outcome.observations:
            if observation.used or observation.kind not in ("break", "error"):
                continue
            if observation.file is None or real(observation.file) not in linted:
                continue
            module = linted[real(observation.file)]
            location = Location(observation.line or 1, 1)
            what = "raises here (`fullgraph=True`)" if observation.kind == "error" else "breaks the graph here"
            finding = Finding(
                rule.code, rule.name, f"torch.compile {what}: {observation.message}; no static rule explains it yet",
                rule.severity, module.display_name, location, location, url=pages.url(rule.code),
                confirmation=Confirmation("confirmed", f"torch {version}: {_short(observation.message)}", version),
            )
            found.setdefault((finding.filename, finding.location.row, observation.message), finding)
    return list(found.values())

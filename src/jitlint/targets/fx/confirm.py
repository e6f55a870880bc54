"""The fx target's confirmer strategy: `torch.fx.symbolic_trace` on the module classes, wrap-and-retry.

Each non-leaf module class (a root, which no other module class of the project uses, or a part of one, which a user
may also trace on its own), or one that has a declared factory, is built and traced by the child side (`confirm_child.py`) with a `Tracer`
that has the configured leaves and autowrap functions; after each failure the failing function is wrapped (or the
failing submodule made a leaf) and the model traced again, so one run shows every failure.

A finding is `confirmed` when tracing fails at its statement; `not-reproduced` when every root that reaches its code
traced to the end with nothing made opaque; `unverified` otherwise (and always for the FX22x warnings: a silent
mis-trace traces either way). What tracing rejects that no rule saw becomes FX000. Findings of other targets and
of the FX1xx graph-pass rules are left as they are.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from jitlint.confirm import ConfirmError, Root, Strategy, file_request, marked, reaching, real, unexplained
from jitlint.finding import Finding
from jitlint.names import module_name_for

POLICY = "fx-trace"
TRACE_ERROR = "FX000"


def _is_trace_rule(code: str) -> bool:
    from jitlint.rules import RULES_BY_CODE

    rule = RULES_BY_CODE.get(code)
    return rule is not None and rule.policy == POLICY and not rule.engine_reported


def traced_roots(project, captured, factories=()) -> dict[Path, list[str]]:
    """Per linted file, the module classes to trace: those whose forward the map treats as a root (no other code
    of the project uses the class), the parts of other modules (the model reports what fails when one is traced on
    its own), and those with a declared factory."""
    from jitlint.targets.fx.trace import alone_roots, is_root_forward

    roots: dict[Path, list[str]] = {}
    for module in project.modules.values():
        if not module.linted:
            continue
        dotted = module_name_for(module.path)[0]
        for name, cls in module.classes.items():
            if not project.is_module_class(cls):
                continue
            forward = project.find_method(cls, "forward")
            entry = captured.get(forward.node) if forward is not None else None
            if entry is None or not entry.body_captured or cls not in (entry.owners or [cls]):
                continue
            own = entry.with_owners([cls])
            if f"{dotted}:{name}" in factories or is_root_forward(captured.policy, own) or alone_roots(
                    captured.policy, own):
                roots.setdefault(module.path, []).append(name)
    return roots


class FxStrategy(Strategy):
    name = "fx"
    child = Path(__file__).with_name("confirm_child.py")

    def requests(self, run, settings):
        project = run.project
        captured = run.captured.get(POLICY)
        if project is None or captured is None:
            raise ConfirmError("--dynamic --target fx needs the fx-trace capture map")
        requests = []
        for path, classes in sorted(traced_roots(project, captured, settings.factories).items()):
            module = next(m for m in project.modules.values() if m.path == path)
            requests.append(file_request(project, module, [Root(name) for name in classes]))
        return requests

    def options(self, run, settings):
        fx = run.captured[POLICY].policy.settings  # the run's `[tool.jitlint.fx]`, as the fx-trace policy read it
        return {
            "leaf_modules": sorted(fx.leaf_modules),
            "autowrap_functions": sorted(fx.autowrap_functions),
            "library_leaves": fx.library_leaves,
        }

    def mark(self, run, results, torch_version, settings):
        from jitlint.rules import RULES_BY_CODE

        captured = run.captured.get(POLICY)
        traced = results.checked()
        marked_findings = []
        for finding in run.findings:
            if finding.context is None or not _is_trace_rule(finding.code):
                marked_findings.append(finding)
                continue
            marked_findings.append(_confirm_one(finding, results, captured, traced, torch_version, settings.strict))
        marked_findings.extend(unexplained(
            results.observations, RULES_BY_CODE[TRACE_ERROR], run.project, torch_version,
            rejects="torch.fx.symbolic_trace",
            no_line="(no line of your code in the traceback; it was tracing `{root}`)", detail=_short))
        marked_findings.sort(key=Finding.sort_key)
        return marked_findings


def _confirm_one(finding, results, captured, traced, torch_version, strict) -> Finding:
    path = real(finding.context.path)
    first, last = finding.context.statement_lines
    at_statement = [error for error in results.observations
                    if error.file is not None and real(error.file) == path and first <= (error.line or 0) <= last]
    for error in at_statement:
        error.used = True  # every class traced through here (a part on its own, the model holding it) fails here
    if at_statement:
        error = at_statement[0]
        return marked(finding, "confirmed", f"torch {torch_version}: {_short(error.message)} (line {error.line})",
                      torch_version)
    from jitlint.rules import RULES_BY_CODE

    if RULES_BY_CODE[finding.code].severity != "error":
        return marked(finding, "unverified", "a silent mis-trace: symbolic_trace succeeds either way", torch_version)
    function = getattr(finding.context, "function", None)
    reached = reaching(captured, function) & traced if function is not None else set()
    if not reached:
        return marked(finding, "unverified", "no module class traced here reaches this code", torch_version)
    for root in sorted(reached):
        if root[0] in results.failures:
            return marked(finding, "unverified", results.failures[root[0]], torch_version)
        status = results.roots[root]
        if not status.built:
            return marked(finding, "unverified", status.reason or f"{root[1]} was not built", torch_version)
        if not status.passed:
            last_error = status.observations[-1].message if status.observations else "an error"
            return marked(finding, "unverified", f"tracing {root[1]} stopped at {_short(last_error)}", torch_version)
        if status.opaque:
            return marked(finding, "unverified", f"masked: {root[1]} traced only with `{status.opaque[0]}` made "
                                                 "opaque", torch_version)
    names = ", ".join(sorted(root[1] for root in reached))
    result = marked(finding, "not-reproduced", f"torch {torch_version} traced {names}", torch_version)
    if not strict:
        result = dataclasses.replace(result, severity="warning")
    return result


def _short(message: str, limit: int = 100) -> str:
    message = message.strip()
    return message if len(message) <= limit else message[: limit - 3] + "..."

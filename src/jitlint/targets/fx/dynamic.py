"""The fx target's dynamic confirmer (`--dynamic --target fx`): trace the linted modules with
`torch.fx.symbolic_trace` and mark every FX2xx finding.

It executes the user's code: in child processes (`dynamic_worker.py`), with time limits, never by default, as the
script checker does (its worker pool and result cache are reused). Each module class the static map treats as a
root (a non-leaf module class no other module class of the project uses) is built (no-argument constructor,
argument defaults, or a declared factory) and traced with a `Tracer` that has the configured leaves and autowrap
functions; after each failure the failing function is wrapped (or the failing submodule made a leaf) and the model
traced again, so one run shows every failure. torch's FX messages carry no location: the error is placed at the
innermost traceback frame in the user's files.

A finding is `confirmed` when tracing fails at its statement; `not-reproduced` when every root that reaches its code
traced to the end with nothing made opaque; `unverified` otherwise (and always for the FX22x warnings: a silent
mis-trace traces either way). What tracing rejects that no rule saw becomes FX000. Findings of other targets and
of the FX1xx graph-pass rules are left as they are.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from jitlint import __version__, pages
from jitlint.dynamic import runner
from jitlint.dynamic.runner import DynamicError, FileRequest, FileResult, probe_torch
from jitlint.finding import Confirmation, Finding, Location
from jitlint.names import module_name_for

POLICY = "fx-trace"
TRACE_ERROR = "FX000"
WORKER = Path(__file__).with_name("dynamic_worker.py")


def _is_trace_rule(code: str) -> bool:
    from jitlint.rules import RULES_BY_CODE

    rule = RULES_BY_CODE.get(code)
    return rule is not None and rule.policy == POLICY and not rule.engine_reported


def traced_roots(project, captured, factories=()) -> dict[Path, list[str]]:
    """Per linted file, the module classes to trace: those whose forward the map treats as a root (no other code
    of the project uses the class), and those with a declared factory."""
    from jitlint.targets.fx.taint import is_root_forward

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
            if f"{dotted}:{name}" in factories or is_root_forward(captured.policy,
                                                                  dataclasses.replace(entry, owners=[cls])):
                roots.setdefault(module.path, []).append(name)
    return roots


def build_requests(project, captured, factories=()) -> tuple[list[FileRequest], list[str]]:
    requests, user_roots = [], set()
    for path, classes in sorted(traced_roots(project, captured, factories).items()):
        module = next(m for m in project.modules.values() if m.path == path)
        dotted, root = module_name_for(module.path)
        user_roots.add(str(root.resolve()))
        dependencies = [other.path for other in project.modules.values()
                        if other is not module and other.linted and other.name.split(".")[0] == dotted.split(".")[0]]
        requests.append(FileRequest(module.path.resolve(), dotted, str(root.resolve()), classes, [], dependencies))
    return requests, sorted(user_roots)


def run_dynamic(run, settings):
    """Confirm the FX2xx findings of `run` with torch.fx.symbolic_trace; DynamicError (exit 2) without torch."""
    project = run.project
    captured = run.captured.get(POLICY)
    if project is None or captured is None:
        raise DynamicError("--dynamic --target fx needs the fx-trace capture map")
    torch_version = probe_torch(settings.python)
    requests, user_roots = build_requests(project, captured, settings.factories)
    fx = captured.policy.settings  # the run's `[tool.jitlint.fx]`, as the fx-trace policy read it
    extra = {
        "leaf_modules": sorted(fx.leaf_modules),
        "autowrap_functions": sorted(fx.autowrap_functions),
        "library_leaves": fx.library_leaves,
    }
    results = _run(requests, user_roots, extra, torch_version, settings)
    return confirm_findings(run.findings, results, captured, project, torch_version, settings.strict)


def _run(requests, user_roots, extra, torch_version, settings) -> list[FileResult]:
    """The script checker's pool (time limits, crash isolation, cache), running the fx worker."""
    return runner.run_requests(
        requests, python=settings.python, torch_version=torch_version, jitlint_version=__version__,
        timeout=settings.timeout, factories=dict(settings.factories), user_roots=user_roots, jobs=settings.jobs,
        cache_dir=settings.cache_dir, log_path=settings.log_path, worker_script=WORKER, extra=extra,
    )


# -- marking findings -------------------------------------------------------------------------------------------
def _real(path) -> str:
    return os.path.realpath(str(path))


def collect(results):
    errors, statuses, failures = [], {}, {}
    for result in results:
        path = _real(result.request.path)
        response = result.response
        if response is None:
            failures[path] = result.failure
            continue
        if response.get("import_error"):
            failures[path] = f"importing it failed: {response['import_error']}"
            continue
        for name, outcome in response.get("classes", {}).items():
            statuses[(path, name)] = outcome
            for raw in outcome.get("errors", []):
                errors.append({**raw, "root": (path, name), "used": False})
    return errors, statuses, failures


def reaching_roots(function, captured, traced: set[tuple[str, str]]) -> set[tuple[str, str]]:
    """The traced roots whose trace runs a function: owners up the chain of call sites."""
    found: set[tuple[str, str]] = set()
    for current in captured.upstream(function.info):
        entry = captured.get(current.node)
        for owner in (entry.owners if entry else []):
            key = (_real(owner.module.path), owner.name)
            if key in traced:
                found.add(key)
    return found


def confirm_findings(findings: list[Finding], results, captured, project, torch_version: str, strict: bool):
    errors, statuses, failures = collect(results)
    traced = set(statuses)
    marked = []
    for finding in findings:
        if finding.context is None or not _is_trace_rule(finding.code):
            marked.append(finding)
            continue
        marked.append(_confirm_one(finding, errors, statuses, failures, captured, traced, torch_version, strict))
    marked.extend(_trace_only(errors, project, torch_version))
    marked.sort(key=Finding.sort_key)
    return marked


def _with(finding: Finding, status: str, detail: str, torch_version: str) -> Finding:
    return dataclasses.replace(finding, confirmation=Confirmation(status, detail, torch_version))


def _confirm_one(finding, errors, statuses, failures, captured, traced, torch_version, strict) -> Finding:
    path = _real(finding.context.path)
    first, last = finding.context.statement_lines
    for error in errors:
        if error["file"] is not None and _real(error["file"]) == path and first <= (error["line"] or 0) <= last:
            error["used"] = True
            return _with(finding, "confirmed", f"torch {torch_version}: {_short(error['message'])} "
                                               f"(line {error['line']})", torch_version)
    from jitlint.rules import RULES_BY_CODE

    if RULES_BY_CODE[finding.code].severity != "error":
        return _with(finding, "unverified", "a silent mis-trace: symbolic_trace succeeds either way", torch_version)
    function = getattr(finding.context, "function", None)
    reaching = reaching_roots(function, captured, traced) if function is not None else set()
    if not reaching:
        return _with(finding, "unverified", "no module class traced here reaches this code", torch_version)
    for root in sorted(reaching):
        if root[0] in failures:
            return _with(finding, "unverified", failures[root[0]], torch_version)
        status = statuses[root]
        if not status.get("built"):
            return _with(finding, "unverified", status.get("reason") or f"{root[1]} was not built", torch_version)
        if not status.get("traced"):
            last_error = status["errors"][-1]["message"] if status.get("errors") else "an error"
            return _with(finding, "unverified", f"tracing {root[1]} stopped at {_short(last_error)}", torch_version)
        if status.get("opaque"):
            return _with(finding, "unverified", f"masked: {root[1]} traced only with `{status['opaque'][0]}` made "
                                                "opaque", torch_version)
    names = ", ".join(sorted(root[1] for root in reaching))
    result = _with(finding, "not-reproduced", f"torch {torch_version} traced {names}", torch_version)
    if not strict:
        result = dataclasses.replace(result, severity="warning")
    return result


def _short(message: str, limit: int = 100) -> str:
    message = message.strip()
    return message if len(message) <= limit else message[: limit - 3] + "..."


def _trace_only(errors, project, torch_version: str) -> list[Finding]:
    """Errors tracing raised that no finding explains: FX000 findings."""
    from jitlint.rules import RULES_BY_CODE

    rule = RULES_BY_CODE[TRACE_ERROR]
    linted = {_real(m.path): m for m in project.modules.values() if m.linted}
    found: dict[tuple, Finding] = {}
    for error in errors:
        if error["used"]:
            continue
        if error["file"] is not None and _real(error["file"]) in linted:
            module, row, where = linted[_real(error["file"])], error["line"] or 1, ""
        else:
            module = linted.get(error["root"][0])
            if module is None:
                continue
            row = _definition_line(module, error["root"][1])
            where = f" (no line of your code in the traceback; it was tracing `{error['root'][1]}`)"
        location = Location(row, 1)
        finding = Finding(
            rule.code, rule.name, f"torch.fx.symbolic_trace rejects this: {error['message']}{where}; no static rule "
            "explains it yet", rule.severity, module.display_name, location, location, url=pages.url(rule.code),
            confirmation=Confirmation("confirmed", f"torch {torch_version}: {_short(error['message'])}", torch_version),
        )
        found.setdefault((finding.filename, row, error["message"]), finding)
    return list(found.values())


def _definition_line(module, name: str) -> int:
    import re

    match = re.search(rf"^class\s+{re.escape(name)}\b", module.tree.code, re.MULTILINE)
    return module.tree.code.count("\n", 0, match.start()) + 1 if match else 1

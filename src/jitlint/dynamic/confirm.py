"""Marking each static finding with what torch.jit.script said, and reporting what only torch saw.

A finding is `confirmed` when torch rejects the code at its statement (or, for errors torch gives no location,
with its rule's error text while compiling a class that reaches it); `not-reproduced` when every module class
(or scripted function) that reaches it scripted to the end; `unverified`, with the reason, otherwise.
"""

from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass

from jitlint import pages
from jitlint.finding import Confirmation, Finding, Location
from jitlint.targets.script.policy import is_script

COMPILER_ERROR = "JIT000"


@dataclass
class TorchError:
    file: str | None
    line: int | None
    message: str
    root: tuple[str, str]  # (file, class or function name) being scripted
    ignored: str | None  # the function jitlint marked ignored to go on
    used: bool = False


@dataclass
class RootStatus:
    scripted: bool
    reason: str
    ignored: dict[str, TorchError]


def _shape(text: str) -> str:
    """An error message with its variable parts (names, addresses, numbers) blanked, for comparing."""
    text = re.sub(r"__torch__(\.\w+)+", "__torch__.T", text)
    text = re.sub(r"<[^<>]*>", "<>", text)
    text = re.sub(r"'[^']*'", "''", text)
    text = re.sub(r"0x[0-9a-fA-F]+", "0x", text)
    return re.sub(r"\d+", "0", text).strip()


def _same_error(message: str, code: str) -> bool:
    expected = _shape(pages.torch_error(code))
    return bool(expected) and _shape(message).startswith(expected[:40])


def _real(path) -> str:
    return os.path.realpath(str(path))


def collect(results) -> tuple[list[TorchError], dict[tuple[str, str], RootStatus], dict[str, str]]:
    """Errors, per-root status, and per-file failures (import errors, timeouts, crashes) from worker results."""
    errors: list[TorchError] = []
    roots: dict[tuple[str, str], RootStatus] = {}
    failures: dict[str, str] = {}
    for result in results:
        path = _real(result.request.path)
        response = result.response
        if response is None:
            failures[path] = result.failure
            continue
        if response.get("import_error"):
            failures[path] = f"importing it failed: {response['import_error']}"
            continue
        for group in ("classes", "functions"):
            for name, outcome in response.get(group, {}).items():
                key = (path, name)
                status = RootStatus(outcome.get("scripted", False), outcome.get("reason", ""), {})
                roots[key] = status
                for raw in outcome.get("errors", []):
                    if raw.get("artifact"):
                        continue  # caused by jitlint's own ignoring, not by the user's code
                    error = TorchError(raw.get("file"), raw.get("line"), raw["message"], key, raw.get("ignored"))
                    errors.append(error)
                    if error.ignored:
                        status.ignored[error.ignored] = error
                if outcome.get("built") and not status.scripted and not status.reason:
                    last = outcome["errors"][-1]["message"] if outcome.get("errors") else "unknown error"
                    status.reason = f"scripting {name} stopped at an error torch gives no usable location for: {last}"
    return errors, roots, failures


def _roots_of(finding: Finding, compiled, project) -> set[tuple[str, str]]:
    """The linted module classes and scripted functions whose scripting compiles the finding's code."""
    context = finding.context
    function = getattr(context, "function", None)
    roots: set[tuple[str, str]] = set()
    if function is None:
        # Class-level rules (a constant's type, a class annotation): the class around the line.
        for module in project.modules.values():
            if module.linted and _real(module.path) == _real(context.path):
                for cls in module.classes.values():
                    if project.is_module_class(cls):
                        roots.add((_real(module.path), cls.name))
        return roots
    for current in compiled.upstream(function.info):
        entry = compiled.get(current.node)
        for owner in entry.owners if entry else []:
            if owner.module.linted:  # a module class, or a TorchScript class a root uses
                roots.add((_real(owner.module.path), owner.name))
        if is_script(current) and current.module.linted:
            roots.add((_real(current.module.path), current.name))
    return roots


def _enclosing_name(finding: Finding) -> str | None:
    function = getattr(finding.context, "function", None)
    return function.info.display_name if function is not None else None


def confirm_findings(findings: list[Finding], results, compiled, project, torch_version: str, strict: bool) -> list[Finding]:
    errors, roots, failures = collect(results)
    from jitlint.rules import RULES_BY_CODE

    confirmed: list[Finding] = []
    for finding in findings:
        if finding.context is None:  # a file that could not be read: nothing to confirm
            confirmed.append(finding)
            continue
        rule = RULES_BY_CODE.get(finding.code)
        if rule is not None and rule.target not in (None, "script"):
            confirmed.append(finding)  # another target's finding: its own confirmer marks it
            continue
        confirmed.append(_confirm_one(finding, errors, roots, failures, compiled, project, torch_version, strict))
    confirmed.extend(_compiler_only(errors, project, torch_version))
    confirmed.sort(key=Finding.sort_key)
    return confirmed


def _class_lines(project, path: str, name: str) -> range:
    """The lines of `class name` (from the `class` keyword to the end of its body) in the linted file `path`
    (remembered on the project index for this run)."""
    cache = getattr(project, "_jitlint_class_lines", None)
    if cache is None:
        cache = {}
        try:
            project._jitlint_class_lines = cache
        except AttributeError:  # an index that takes no new attributes: no memo
            pass
    key = (path, name)
    if key not in cache:
        cache[key] = _find_class_lines(project, path, name)
    return cache[key]


def _find_class_lines(project, path: str, name: str) -> range:
    for module in project.modules.values():
        if not module.linted or _real(module.path) != path or name not in module.classes:
            continue
        text = module.tree.code_for_node(module.classes[name].node)
        match = re.search(rf"^(?:async\s+)?class\s+{re.escape(name)}\b", text, re.MULTILINE)
        if match is None:
            return range(0)
        start = _definition_line(module, name)
        return range(start, start + text[match.start():].rstrip().count("\n") + 1)
    return range(0)


def _linted_paths(project) -> set[str]:
    """The real paths of the linted files (remembered on the project index for this run)."""
    found = getattr(project, "_jitlint_linted_paths", None)
    if found is None:
        found = {_real(m.path) for m in project.modules.values() if m.linted}
        try:
            project._jitlint_linted_paths = found
        except AttributeError:
            pass
    return found


def _confirm_one(finding, errors, roots, failures, compiled, project, torch_version, strict) -> Finding:
    from jitlint.rules import RULES_BY_CODE

    path = _real(finding.context.path)
    linted = _linted_paths(project)
    first, last = finding.context.statement_lines
    reaching = _roots_of(finding, compiled, project)
    whole_class = getattr(RULES_BY_CODE.get(finding.code), "whole_class", None)
    if whole_class is not None:
        # the class's own no-line error first, so that another class's error with the same text (matched by
        # message below) is left to explain that class
        errors = sorted(errors, key=lambda error: not (error.file is None and error.root[0] == path and
                                                       finding.location.row in _class_lines(project, path, error.root[1])))
    for error in errors:
        at_statement = error.file is not None and _real(error.file) == path and first <= (error.line or 0) <= last
        # An error torch gave no line for in the linted code (none at all, or one in a file the run does not lint:
        # a helper the linted code calls) is matched by its text, while scripting a root that reaches the finding.
        by_message = (error.file is None or _real(error.file) == path or _real(error.file) not in linted) and \
            error.root in reaching and _same_error(error.message, finding.code)
        # A rule that predicts a rejection of the whole class (torch refuses it before compiling any line of it)
        # is confirmed by an error torch gave no line for while scripting the class whose body holds the finding:
        # with the page's error text, or any text when the message is the class's own (`__prepare_scriptable__`
        # raising), which no page can quote.
        by_class = whole_class is not None and error.file is None and error.root[0] == path and \
            finding.location.row in _class_lines(project, path, error.root[1]) and \
            (whole_class == "any-error" or _same_error(error.message, finding.code))
        if at_statement or by_message or by_class:
            error.used = True
            # Torch may report the same statement again (the class and its methods compiled on their own, another
            # root): those reports are explained too, not JIT000s of their own.
            for other in errors:
                if other.file is not None and _real(other.file) == path and first <= (other.line or 0) <= last \
                        and other.message == error.message:
                    other.used = True
                # The same error with no line from another root that compiles this code (a class holding the
                # faulty submodule, refused while torch builds that submodule's signatures) is this one again.
                if error.file is None and other.file is None and other.root in reaching \
                        and other.message == error.message:
                    other.used = True
            where = f"line {error.line}" if error.line else "no line given"
            if error.file is not None and _real(error.file) != path and _real(error.file) not in linted:
                where = f"line {error.line} of {os.path.basename(error.file)}, a file not linted"
            return _with(finding, "confirmed", f"torch {torch_version}: {_short(error.message)} ({where})", torch_version)
    if not reaching:
        return _with(finding, "unverified", "no module class or scripted function in the linted files reaches this code", torch_version)
    name = _enclosing_name(finding)
    for root in sorted(reaching):
        if root[0] in failures:
            return _with(finding, "unverified", failures[root[0]], torch_version)
        status = roots.get(root)
        if status is None:
            return _with(finding, "unverified", f"{root[1]} was not checked", torch_version)
        if name is not None and name in status.ignored:
            masking = status.ignored[name]
            return _with(finding, "unverified", f"masked: torch stopped at another error in `{name}` first "
                                                f"(line {masking.line}: {_short(masking.message)})", torch_version)
        if not status.scripted:
            return _with(finding, "unverified", status.reason or f"{root[1]} did not script", torch_version)
        if status.ignored:
            # Scripting only finished once the failing functions were ignored, and this code may have been
            # compiled only through them: torch has not shown whether it accepts it.
            first = next(iter(status.ignored.values()))
            return _with(finding, "unverified", f"masked: {root[1]} scripted only with `{first.ignored}` ignored "
                                                f"(line {first.line}: {_short(first.message)})", torch_version)
    names = ", ".join(sorted(root[1] for root in reaching))
    result = _with(finding, "not-reproduced", f"torch {torch_version} scripted {names}", torch_version)
    if finding.severity == "error" and not strict:
        result = dataclasses.replace(result, severity="warning")
    return result


def _short(message: str, limit: int = 80) -> str:
    message = message.rstrip(":").strip()
    return message if len(message) <= limit else message[: limit - 3] + "..."


def _with(finding: Finding, status: str, detail: str, torch_version: str) -> Finding:
    return dataclasses.replace(finding, confirmation=Confirmation(status, detail, torch_version))


def _compiler_only(errors: list[TorchError], project, torch_version: str) -> list[Finding]:
    """Errors torch reported that no static finding explains: findings of their own."""
    from jitlint.rules import RULES_BY_CODE

    rule = RULES_BY_CODE[COMPILER_ERROR]
    linted = {_real(m.path): m for m in project.modules.values() if m.linted}
    found: dict[tuple, Finding] = {}
    for error in errors:
        if error.used:
            continue
        if error.file is not None and _real(error.file) in linted:
            module, row = linted[_real(error.file)], error.line or 1
            where = ""
        else:
            module = linted.get(error.root[0])
            if module is None:
                continue
            row = _definition_line(module, error.root[1])
            where = f" (torch gave no line in your code; it was scripting `{error.root[1]}`)"
        location = Location(row, 1)
        finding = Finding(
            rule.code, rule.name,
            f"torch.jit.script rejects this: {error.message}{where}; no static rule explains it yet",
            rule.severity, module.display_name, location, location, url=pages.url(rule.code),
            confirmation=Confirmation("confirmed", f"torch {torch_version}: {error.message}", torch_version),
        )
        found.setdefault((finding.filename, row, error.message), finding)
    return list(found.values())


def _definition_line(module, name: str) -> int:
    """The line of `class name` / `def name` at the top level of the module."""
    match = re.search(rf"^(?:async\s+)?(?:class|def)\s+{re.escape(name)}\b", module.tree.code, re.MULTILINE)
    return module.tree.code.count("\n", 0, match.start()) + 1 if match else 1

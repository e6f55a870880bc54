"""The script target's confirmer strategy: `torch.jit.script` on the linted modules, ignore-and-retry.

Every module class of a linted file (and every `@torch.jit.script` function) is built and scripted by the child
side (`confirm_child.py`). Where a model's errors mask code (torch stopped, or scripted it only with a failing
function ignored), each function, method or TorchScript class that holds a static error the model reaches is
scripted on its own too (`units`). A finding is then `confirmed` when torch rejects the code at its statement (or, for errors
torch gives no location, with its rule's error text while compiling a class that reaches it; or, for a rule that
predicts the rejection of a whole class, with a no-line error while scripting the class that holds it);
`not-reproduced` when every module class (or scripted function) that reaches it scripted to the end, or when its
function, scripted on its own with nothing ignored, compiled; `unverified`,
with the reason, otherwise. What torch rejects that no finding explains becomes a JIT000 finding.
"""

from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from jitlint import pages
from jitlint.confirm import (Observation, Root, Strategy, definition_line, file_request, marked, reaching, real,
                             unexplained)
from jitlint.finding import Finding
from jitlint.names import module_name_for
from jitlint.targets.script.confirm_reasons import OTHER, reason
from jitlint.targets.script.policy import is_script

COMPILER_ERROR = "JIT000"


# At most this many captures of one root (or unit): each makes the culprit of its error opaque and tries again.
MAX_ATTEMPTS = 40

# The share of a file's time limit after which no more failing statements are left out to see the next error.
LEAVE_OUT_SHARE = 0.4

# At most this many units (functions, methods) of one root are scripted on their own when its errors mask them.
MAX_UNITS = 40


@dataclass
class RootStatus:
    scripted: bool
    reason: str
    ignored: dict[str, Observation]  # function ignored to go on -> the error it was ignored for
    units: dict[str, dict] = field(default_factory=dict)  # unit id -> how scripting it on its own went
    built_with: str = ""  # "file:line" of the construction site whose arguments built it, if one did


def _shape(text: str) -> str:
    """An error message with its variable parts (names, addresses, numbers) blanked, for comparing."""
    text = re.sub(r"__torch__(\.\w+)+", "__torch__.T", text)
    text = re.sub(r"<[^<>]*>", "<>", text)
    text = re.sub(r"'[^']*'", "''", text)
    text = re.sub(r"0x[0-9a-fA-F]+", "0x", text)
    return re.sub(r"\d+", "0", text).strip()


def same_error(message: str, code: str) -> bool:
    """Whether torch's message is the error the page of rule `code` quotes (up to names and numbers)."""
    expected = _shape(pages.torch_error(code))
    return bool(expected) and _shape(message).startswith(expected[:40])


class ScriptStrategy(Strategy):
    name = "script"
    child = Path(__file__).with_name("confirm_child.py")

    def requests(self, run, settings):
        """One request per linted file that defines something torch scripts on its own: module classes and
        `@torch.jit.script` functions."""
        project, compiled = run.project, run.captured["script"]
        units = _units(run, compiled, project)
        requests = []
        for module in project.modules.values():
            if not module.linted:
                continue
            classes = [name for name, cls in module.classes.items() if project.is_module_class(cls)]
            functions = [name for name, function in module.functions.items() if is_script(function)]
            if not classes and not functions:
                continue
            free = [name for name, f in module.functions.items()
                    if (entry := compiled.get(f.node)) is not None and entry.body_captured]
            path = real(module.path)
            roots = [Root(name, options={"methods": _compiled_methods(module.classes[name], compiled),
                                         "free_functions": free, "units": units.get((path, name), [])[:MAX_UNITS]})
                     for name in classes]
            if roots:
                # no class root after it: its units may take the rest of the file's time
                roots[-1].options["last"] = True
            roots += [Root(name, kind="function") for name in functions]
            requests.append(file_request(project, module, roots))
        return requests

    def options(self, run, settings) -> dict:
        # Each attribute or property torch cannot type costs an attempt before any method is compiled (a library's
        # base class may hold a dozen), besides each failing function.
        return {"max_attempts": MAX_ATTEMPTS, "leave_out_seconds": settings.timeout * LEAVE_OUT_SHARE}

    def mark(self, run, results, torch_version, settings):
        from jitlint.rules import RULES_BY_CODE

        compiled, project = run.captured["script"], run.project
        errors, roots = _collect(results)
        confirmed: list[Finding] = []
        mine = [finding for finding in run.findings if finding.context is not None
                and getattr(RULES_BY_CODE.get(finding.code), "target", None) in (None, "script")]
        owned = _owned(errors, mine)
        for finding in run.findings:
            if finding.context is None:  # a file that could not be read: nothing to confirm
                confirmed.append(finding)
                continue
            rule = RULES_BY_CODE.get(finding.code)
            if rule is not None and rule.target not in (None, "script"):
                confirmed.append(finding)  # another target's finding: its own confirmer marks it
                continue
            confirmed.append(_confirm_one(finding, errors, roots, results.failures, compiled, project, torch_version,
                                          settings.strict, owned))
        # an error seen only with a signature relaxed confirms a finding at its statement, and is no JIT000
        confirmed.extend(unexplained([error for error in errors if not error.details.get("relaxed")],
                                     RULES_BY_CODE[COMPILER_ERROR], project, torch_version,
                                     rejects="torch.jit.script",
                                     no_line="(torch gave no line in your code; it was scripting `{root}`)",
                                     detail=lambda message: message))
        confirmed.sort(key=Finding.sort_key)
        return confirmed


def _unit(function, project) -> dict:
    """What the child side scripts on its own to judge code of `function` (a project FunctionInfo): the function
    itself when it is free, the method on an instance of its module class built inside the root, or its TorchScript
    class."""
    dotted = module_name_for(function.module.path)[0]
    uid = unit_id(function)
    if function.cls is None:
        return {"id": uid, "kind": "function", "module": dotted, "name": function.name}
    if project.is_module_class(function.cls):
        return {"id": uid, "kind": "method", "module": dotted, "class": function.cls.name, "name": function.name}
    return {"id": uid, "kind": "class", "module": dotted, "class": function.cls.name}


def unit_id(function) -> str:
    return f"{module_name_for(function.module.path)[0]}:{function.display_name}"


def _units(run, compiled, project) -> dict[tuple[str, str], list[dict]]:
    """Per root (real path, class name): the units holding the static errors its scripting reaches, to script on
    their own when the root's own errors mask them."""
    found: dict[tuple[str, str], list[dict]] = {}
    rows: dict[str, set[int]] = {}  # unit id -> the lines of its static errors
    for finding in run.findings:
        function = getattr(finding.context, "function", None)
        if function is None or finding.severity != "error" or not finding.code.startswith("JIT"):
            continue
        unit = None
        for root in _roots_of(finding, compiled, project):
            unit = unit or _unit(function.info, project)
            rows.setdefault(unit["id"], set()).add(finding.location.row)
            listed = found.setdefault(root, [])
            if all(other["id"] != unit["id"] for other in listed):
                listed.append(unit)
    for listed in found.values():
        for unit in listed:
            # the lines of its static errors: the child leaves failing statements out while one lies after them
            unit["lines"] = sorted(rows.get(unit["id"], ()))
    return found


def _compiled_methods(cls, compiled) -> list[str]:
    return [m for m, method in cls.methods.items()
            if (entry := compiled.get(method.node)) is not None and entry.body_captured]


def _collect(results) -> tuple[list[Observation], dict[tuple[str, str], RootStatus]]:
    """The errors that are the user's (not caused by jitlint's own ignoring), and each root's status."""
    errors: list[Observation] = []
    roots: dict[tuple[str, str], RootStatus] = {}
    for key, outcome in results.roots.items():
        if outcome.failure:
            continue
        status = RootStatus(outcome.passed, outcome.reason, {},
                            {unit["unit"]: unit for unit in outcome.details.get("units", [])},
                            outcome.details.get("built_with", ""))
        roots[key] = status
        for error in outcome.observations:
            # A function ignored to go on was not checked, whatever made it fail; a module attribute left out of
            # the type (torch could not type it) masks no code of its own.
            if error.opaque and not error.details.get("unit") and not error.details.get("attribute"):
                status.ignored[error.opaque] = error
            if error.details.get("artifact"):
                continue  # caused by jitlint's own ignoring, not by the user's code
            errors.append(error)
        if outcome.built and not status.scripted and not status.reason and outcome.details.get("out_of_time"):
            status.reason = f"scripting {outcome.name} stopped when the file's time limit was nearly out (raise " \
                            "`timeout` in [tool.jitlint.dynamic])"
        elif outcome.built and not status.scripted and not status.reason:
            last = outcome.observations[-1].message if outcome.observations else "unknown error"
            status.reason = f"scripting {outcome.name} stopped at an error torch gives no usable location for: {last}"
    return errors, roots


def _roots_of(finding: Finding, compiled, project) -> set[tuple[str, str]]:
    """The linted module classes and scripted functions whose scripting compiles the finding's code."""
    context = finding.context
    function = getattr(context, "function", None)
    if function is None:
        # Class-level rules (a constant's type, a class annotation): the class around the line.
        roots: set[tuple[str, str]] = set()
        for module in project.modules.values():
            if module.linted and real(module.path) == real(context.path):
                for cls in module.classes.values():
                    if project.is_module_class(cls):
                        roots.add((real(module.path), cls.name))
        return roots
    # a module class, or a TorchScript class a root uses, and the scripted functions up the chain
    return reaching(compiled, function, also=is_script)


def _enclosing_name(finding: Finding) -> str | None:
    function = getattr(finding.context, "function", None)
    return function.info.display_name if function is not None else None


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
        if not module.linted or real(module.path) != path or name not in module.classes:
            continue
        text = module.tree.code_for_node(module.classes[name].node)
        match = re.search(rf"^(?:async\s+)?class\s+{re.escape(name)}\b", text, re.MULTILINE)
        if match is None:
            return range(0)
        start = definition_line(module, name)
        return range(start, start + text[match.start():].rstrip().count("\n") + 1)
    return range(0)


def _linted_paths(project) -> set[str]:
    """The real paths of the linted files (remembered on the project index for this run)."""
    found = getattr(project, "_jitlint_linted_paths", None)
    if found is None:
        found = {real(m.path) for m in project.modules.values() if m.linted}
        try:
            project._jitlint_linted_paths = found
        except AttributeError:
            pass
    return found


def _places(error) -> list[tuple[str, int]]:
    """Where torch placed an error in the user's files: the line it names, and, for an error in a function a decorator
    wraps (placed at its call), the wrapped line it is in."""
    places = [(error.file, error.line), tuple(error.details.get("wrapped") or (None, None))]
    return [(real(file), line or 0) for file, line in places if file is not None]


def _owned(errors, findings) -> set[int]:
    """The ids of the errors torch placed at the statement of one of `findings` (the script target's): each is that
    finding's own (it confirms it whatever its text), so it is no evidence for a finding at another line."""
    spans: dict[str, list[tuple[int, int]]] = {}
    for finding in findings:
        spans.setdefault(real(finding.context.path), []).append(finding.context.statement_lines)
    return {id(error) for error in errors
            if any(first <= line <= last for file, line in _places(error) for first, last in spans.get(file, ()))}


_FRAME = re.compile(r'File "([^"]+)", line (\d+)')


def _inside_callee(error, linted: set[str]) -> bool:
    """Whether torch's error is in code of a file the run does not lint (the first place its text names), placed at
    the linted call that reached it: its message then says what is wrong in that callee (einops' `rearrange`, whose
    body expands `**axes_lengths`), not which rule's problem the calling statement has."""
    first = _FRAME.search(error.details.get("text") or "")
    return first is not None and error.file is not None and real(first.group(1)) not in linted and \
        real(first.group(1)) != real(error.file)


def _confirm_one(finding, errors, roots, failures, compiled, project, torch_version, strict,
                 owned: set[int] = frozenset()) -> Finding:
    from jitlint.rules import RULES_BY_CODE

    path = real(finding.context.path)
    linted = _linted_paths(project)
    first, last = finding.context.statement_lines
    reaching_roots = _roots_of(finding, compiled, project)
    whole_class = getattr(RULES_BY_CODE.get(finding.code), "whole_class", None)
    explains = bool(getattr(RULES_BY_CODE.get(finding.code), "explains_other_findings", False))
    if whole_class is not None:
        # the class's own no-line error first, so that another class's error with the same text (matched by
        # message below) is left to explain that class
        errors = sorted(errors, key=lambda error: not (
            error.file is None and error.root[0] == path
            and finding.location.row in _class_lines(project, path, error.root[1])))
    def at(error) -> bool:
        """Torch's error is at the finding's statement: where it is placed, or, for an error in a function a
        decorator wraps (placed at its call), the wrapped line it is in."""
        return any(file == path and first <= line <= last for file, line in _places(error))

    # the error the rule predicts (its page's text) explains it first, then one at its statement, then one on its
    # own line (a statement's other lines hold other findings' errors)
    other_reason = None  # (error, rules): torch's first error at the statement that is only other rules' reason
    for error in sorted(errors, key=lambda error: (not same_error(error.message, finding.code), not at(error),
                                                   error.line != finding.location.row)):
        at_statement = at(error)
        # An error torch gave no line for in the linted code (none at all, or one in a file the run does not lint:
        # a helper the linted code calls) is matched by its text, while scripting a root that reaches the finding;
        # so is one torch placed elsewhere in the finding's file, unless a finding sits at that statement: then the
        # error is that finding's own, and says nothing of this one's line (torch may never have compiled it). A
        # rule that explains other findings (a guard that does not prune) is confirmed by their errors.
        # (nor one seen scripting a unit of a class no instance of which was built: torch never compiled the rest)
        relaxed = bool(error.details.get("relaxed")) or (bool(error.details.get("unbuilt")) and error.file is not None)
        placed = error.file is not None and real(error.file) in linted
        elsewhere = real(error.file) == path and (explains or id(error) not in owned) if placed else True
        by_message = not relaxed and elsewhere and error.root in reaching_roots and same_error(error.message,
                                                                                                finding.code)
        # A rule that predicts a rejection of the whole class (torch refuses it before compiling any line of it)
        # is confirmed by an error torch gave no line for while scripting the class whose body holds the finding:
        # with the page's error text, or any text when the message is the class's own (`__prepare_scriptable__`
        # raising), which no page can quote.
        by_class = not relaxed and whole_class is not None and error.file is None and error.root[0] == path and \
            finding.location.row in _class_lines(project, path, error.root[1]) and \
            (whole_class == "any-error" or same_error(error.message, finding.code))
        if at_statement and not (by_message or by_class or explains) and not _inside_callee(error, linted):
            # torch rejects the finding's statement: for the rule's reason, for another rule's (the finding's own
            # problem unseen: torch stopped first at another), or with a message no rule names (evidence by place)
            kind, others = reason(error.message, finding.code)
            if kind == OTHER:
                # not marked used: a finding of the rule it is the reason of explains it, or it is a JIT000
                other_reason = other_reason or (error, others)
                continue
        if at_statement or by_message or by_class:
            error.used = True
            # Torch may report the same statement again (the class and its methods compiled on their own, another
            # root): those reports are explained too, not JIT000s of their own.
            for other in errors:
                if at(other) and other.message == error.message:
                    other.used = True
                # The same error with no line from another root that compiles this code (a class holding the
                # faulty submodule, refused while torch builds that submodule's signatures) is this one again.
                if error.file is None and other.file is None and other.root in reaching_roots \
                        and other.message == error.message:
                    other.used = True
            wrapped = error.details.get("wrapped")
            if wrapped and real(wrapped[0]) == path and first <= wrapped[1] <= last:
                where = f"line {wrapped[1]}, reached through the call at line {error.line}"
            else:
                where = f"line {error.line}" if error.line else "no line given"
            if error.details.get("dropped"):
                # torch's error at this statement, seen with the earlier failing statements of its function left
                # out (the uses of what they bound are not counted: `artifact`)
                where += ", the function's earlier failing statements left out"
            if error.file is not None and real(error.file) != path and real(error.file) not in linted:
                where = f"line {error.line} of {os.path.basename(error.file)}, a file not linted"
            return marked(finding, "confirmed", f"torch {torch_version}: {_short(error.message)} ({where})",
                          torch_version)
    if other_reason is not None:
        error, others = other_reason
        return marked(finding, "unverified", f"torch {torch_version} rejects this statement for another reason: "
                                             f"{_short(error.message)} (line {error.line}; what "
                                             f"{' or '.join(others[:3])} reports), before showing this one",
                      torch_version)
    if not reaching_roots:
        return marked(finding, "unverified", "no module class or scripted function in the linted files reaches this "
                                             "code", torch_version)
    name = _enclosing_name(finding)
    function = getattr(finding.context, "function", None)
    if function is not None:
        # the model's errors may mask this code: scripted on its own, with nothing ignored, torch accepted it
        uid = unit_id(function.info)
        for root in sorted(reaching_roots):
            unit = roots[root].units.get(uid) if root in roots else None
            # (not when a statement was left out, the function unwrapped or a parameter typed from its default:
            # then torch compiled other code than the user's)
            if unit is not None and unit["found"] and unit["passed"] and not unit["opaque"] and not unit.get("dropped") \
                    and not unit.get("unwrapped") and not unit.get("typed"):
                relaxed = ", its *args/**kwargs left out of the signature" if unit.get("relaxed") else ""
                result = marked(finding, "not-reproduced", f"torch {torch_version} scripted `{name}` on its own "
                                f"(built in {root[1]}{relaxed})", torch_version)
                return result if finding.severity != "error" or strict else dataclasses.replace(result,
                                                                                                 severity="warning")
    for root in sorted(reaching_roots):
        if root[0] in failures:
            return marked(finding, "unverified", failures[root[0]], torch_version)
        status = roots.get(root)
        if status is None:
            return marked(finding, "unverified", f"{root[1]} was not checked", torch_version)
        if name is not None and name in status.ignored:
            masking = status.ignored[name]
            stopped = _unit_stopped(function, reaching_roots, roots)
            if stopped is not None:
                return marked(finding, "unverified", f"masked: `{name}` scripted on its own stopped at line "
                                                     f"{stopped['line']} ({_short(stopped['message'])}): "
                                                     f"{stopped['why']}", torch_version)
            return marked(finding, "unverified", f"masked: torch stopped at another error in `{name}` first "
                                                 f"(line {masking.line}: {_short(masking.message)})", torch_version)
        if not status.scripted:
            return marked(finding, "unverified", status.reason or f"{root[1]} did not script", torch_version)
        if status.ignored:
            # Scripting only finished once the failing functions were ignored, and this code may have been
            # compiled only through them: torch has not shown whether it accepts it. Where its own function,
            # scripted on its own, stopped says more.
            stopped = _unit_stopped(function, reaching_roots, roots)
            if stopped is not None:
                return marked(finding, "unverified", f"masked: `{name}` scripted on its own stopped at line "
                                                     f"{stopped['line']} ({_short(stopped['message'])}): "
                                                     f"{stopped['why']}", torch_version)
            first = next(iter(status.ignored.values()))
            return marked(finding, "unverified", f"masked: {root[1]} scripted only with `{first.opaque}` ignored "
                                                 f"(line {first.line}: {_short(first.message)})", torch_version)
    names = ", ".join(root[1] + (f" (built with {_built_with(roots[root].built_with)})"
                                 if roots[root].built_with else "") for root in sorted(reaching_roots))
    result = marked(finding, "not-reproduced", f"torch {torch_version} scripted {names}", torch_version)
    if finding.severity == "error" and not strict:
        result = dataclasses.replace(result, severity="warning")
    return result


def _built_with(where: str) -> str:
    """How a root was built: the arguments of a construction site ("file:line"), or the arguments its declarations
    build ("config=BertConfig()")."""
    return f"the arguments at {os.path.basename(where)}" if os.sep in where else where


def _unit_stopped(function, reaching_roots, roots) -> dict | None:
    """Where and why the finding's function, scripted on its own, stopped before the rest of its body (the unit's
    `stopped`: {"line", "message", "why"}), when it did."""
    if function is None:
        return None
    uid = unit_id(function.info)
    for root in sorted(reaching_roots):
        unit = roots[root].units.get(uid) if root in roots else None
        if unit is not None and unit.get("stopped") and not unit["passed"]:
            return unit["stopped"]
    return None


def _short(message: str, limit: int = 80) -> str:
    message = message.rstrip(":").strip()
    return message if len(message) <= limit else message[: limit - 3] + "..."

"""What the children answered, read back, and the helpers every strategy marks its findings with."""

from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable

from jitlint import pages
from jitlint.confirm.pool import FileResult
from jitlint.finding import Confirmation, Finding, Location
from jitlint.names import module_name_for


_OBSERVATION_FIELDS = ("file", "line", "message", "kind", "opaque")


def real(path) -> str:
    return os.path.realpath(str(path))


@dataclass
class Observation:
    """One thing torch said about a root: where (a line of the user's files, when it named one), what, and the
    strategy's own details (torch's full text, what was made opaque after it, ...)."""

    file: str | None
    line: int | None
    message: str
    kind: str
    root: tuple[str, str]  # (real path, name) of the root being captured
    opaque: str | None = None  # what the retry loop made opaque after it, to go on
    details: dict = field(default_factory=dict)
    used: bool = False  # a finding explains it


@dataclass
class RootOutcome:
    path: str
    name: str
    kind: str
    built: bool
    reason: str  # why it was not built (or checked at all)
    passed: bool  # the capture went through, possibly with `opaque` things
    opaque: list[str]
    observations: list[Observation]
    failure: str = ""  # the request that held it had no answer (timeout, crash, exit, import error)
    details: dict = field(default_factory=dict)  # what else the strategy's child side returned


class Results:
    """The answers of one confirmer run: per root, and per file the failures that left a whole file unchecked."""

    def __init__(self, results: list[FileResult]) -> None:
        self.failures: dict[str, str] = {}  # real path -> why nothing of the file was checked
        self.roots: dict[tuple[str, str], RootOutcome] = {}
        self.observations: list[Observation] = []
        for result in results:
            path = real(result.request.path)
            response = result.response
            failure = result.failure if response is None else ""
            if response is not None and response.get("import_error"):
                failure = f"importing it failed: {response['import_error']}"
            if failure:
                self.failures[path] = failure
                for root in result.request.roots:
                    self.roots[(path, root.name)] = RootOutcome(path, root.name, root.kind, False, failure, False, [],
                                                                [], failure)
                continue
            kinds = {root.name: root.kind for root in result.request.roots}
            for name, answer in response.get("roots", {}).items():
                key = (path, name)
                answer = dict(answer)
                observations = [
                    Observation(raw.get("file"), raw.get("line"), raw.get("message", ""), raw.get("kind", ""), key,
                                raw.get("opaque"), {k: v for k, v in raw.items() if k not in _OBSERVATION_FIELDS})
                    for raw in answer.pop("observations", [])
                ]
                self.roots[key] = RootOutcome(
                    path, name, kinds.get(name, "class"), answer.pop("built", False), answer.pop("reason", ""),
                    answer.pop("passed", False), answer.pop("opaque", []), observations, details=answer,
                )
                self.observations.extend(observations)

    def checked(self) -> set[tuple[str, str]]:
        """The roots a child answered for (whether or not they could be built)."""
        return {key for key, outcome in self.roots.items() if not outcome.failure}


def marked(finding: Finding, status: str, detail: str, torch_version: str) -> Finding:
    """`finding` with its confirmation: `confirmed`, `not-reproduced` or `unverified`, why, and by which torch."""
    return dataclasses.replace(finding, confirmation=Confirmation(status, detail, torch_version))


def reaching(captured, function, also: Callable[[object], bool] | None = None) -> set[tuple[str, str]]:
    """(real path, name) of the linted classes whose capture runs `function`: the owners of each function up its
    chain of call sites; with `also`, each of those functions it says is captured on its own (a scripted function)."""
    found: set[tuple[str, str]] = set()
    for current in captured.upstream(function.info):
        entry = captured.get(current.node)
        for owner in entry.owners if entry else []:
            if owner.module.linted:
                found.add((real(owner.module.path), owner.name))
        if also is not None and also(current) and current.module.linted:
            found.add((real(current.module.path), current.name))
    return found


@dataclass(frozen=True)
class ModuleRoot:
    """A module class of the linted files, as a strategy builds it: the project's module, the class name and the
    key `[tool.jitlint.dynamic] inputs` and `factories` name it by ("pkg.module:Class")."""

    module: object  # the project's ModuleInfo
    name: str
    key: str


def module_roots(project) -> dict[tuple[str, str], ModuleRoot]:
    """Every module class of the linted files, by (real path, class name)."""
    found = {}
    for module in project.modules.values():
        if not module.linted:
            continue
        dotted = module_name_for(module.path)[0]
        for name, cls in module.classes.items():
            if project.is_module_class(cls):
                found[(real(module.path), name)] = ModuleRoot(module, name, f"{dotted}:{name}")
    return found


def reached_roots(finding: Finding, captured, roots: dict) -> set[tuple[str, str]]:
    """The roots whose capture runs the finding's code (the owners up its call chain); for a finding outside any
    function (a class-level one), the class that holds it, when it is a root."""
    function = getattr(finding.context, "function", None)
    if function is None or captured is None:
        key = (real(finding.context.path), (finding.context.scope or "").split(".")[0])
        return {key} if key in roots else set()
    return reaching(captured, function) & roots.keys()


def definition_line(module, name: str) -> int:
    """The line of `class name` / `def name` at the top level of the module."""
    match = re.search(rf"^(?:async\s+)?(?:class|def)\s+{re.escape(name)}\b", module.tree.code, re.MULTILINE)
    return module.tree.code.count("\n", 0, match.start()) + 1 if match else 1


def unexplained(observations: Iterable[Observation], rule, project, torch_version: str, *, rejects: str,
                no_line: str, detail: Callable[[str], str]) -> list[Finding]:
    """Findings of `rule` (JIT000, FX000) for what torch rejected that no finding explains (`used`), one per line
    and message: at the observation's line, or at the `class`/`def` line of its root when torch named no line of the
    linted files (`no_line`, formatted with `root`, says so)."""
    linted = {real(m.path): m for m in project.modules.values() if m.linted}
    found: dict[tuple, Finding] = {}
    for observation in observations:
        if observation.used:
            continue
        if observation.file is not None and real(observation.file) in linted:
            module, row, where = linted[real(observation.file)], observation.line or 1, ""
        else:
            module = linted.get(observation.root[0])
            if module is None:
                continue
            row = definition_line(module, observation.root[1])
            where = " " + no_line.format(root=observation.root[1])
        location = Location(row, 1)
        finding = Finding(
            rule.code, rule.name,
            f"{rejects} rejects this: {observation.message}{where}; no static rule explains it yet",
            rule.severity, module.display_name, location, location, url=pages.url(rule.code),
            confirmation=Confirmation("confirmed", f"torch {torch_version}: {detail(observation.message)}",
                                      torch_version),
        )
        found.setdefault((finding.filename, row, observation.message), finding)
    return list(found.values())

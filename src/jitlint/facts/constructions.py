"""The calls of each file, for the analyses that look for where a project class is built: the trace target's
classes passed to an `__init__` parameter (`facts/dispatch.py`) and the typer's runtime classes of submodules
(`targets/script/typing/built.py`).

`calls_of(project, module)` is a run fact: every call of the file whose callee is a name or an attribute, in source
order and by the callee's last name, each with the class whose `__init__` it is written in (directly in its body)
and the innermost function around it. Whether a call builds a given class is the reader's question
(`project.resolve_class(module.imports.qualify(call.func))`), asked only of the calls of the files that name it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

import libcst as cst

from jitlint.facts import RunFact, run_fact
from jitlint.walk import walk

if TYPE_CHECKING:
    from jitlint.project import ClassInfo, ModuleInfo, ProjectIndex


class SiteCall(NamedTuple):
    call: cst.Call
    init_of: "ClassInfo | None"  # the class whose `__init__` holds the call in its own body
    function: cst.FunctionDef | None  # the innermost function around the call


@dataclass
class ModuleCallsResult:
    ordered: list[SiteCall] = field(default_factory=list)
    by_name: dict[str, list[SiteCall]] = field(default_factory=dict)


class ModuleCalls(RunFact):
    @classmethod
    def compute(cls, project: "ProjectIndex", module: "ModuleInfo") -> ModuleCallsResult:
        found = ModuleCallsResult()
        stack: list[cst.CSTNode] = []

        class Calls(cst.CSTVisitor):
            def visit_ClassDef(self, node: cst.ClassDef) -> None:
                stack.append(node)

            def leave_ClassDef(self, node: cst.ClassDef) -> None:
                stack.pop()

            def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
                stack.append(node)

            def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
                stack.pop()

            def visit_Call(self, node: cst.Call) -> None:
                func = node.func
                name = func.value if isinstance(func, cst.Name) else func.attr.value if isinstance(
                    func, cst.Attribute) else None
                if name is None:
                    return
                init_of = None
                function = next((item for item in reversed(stack) if isinstance(item, cst.FunctionDef)), None)
                if (len(stack) == 2 and isinstance(stack[0], cst.ClassDef) and isinstance(stack[1], cst.FunctionDef)
                        and stack[1].name.value == "__init__"):
                    init_of = module.classes.get(stack[0].name.value)
                site = SiteCall(node, init_of, function)
                found.ordered.append(site)
                found.by_name.setdefault(name, []).append(site)

        walk(module.tree, Calls())
        return found


def calls_of(project: "ProjectIndex", module: "ModuleInfo") -> ModuleCallsResult:
    return run_fact(project, ModuleCalls, module)

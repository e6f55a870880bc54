"""The methods a module's `__init__` calls on the instance, and what they store: torch types an attribute by the
value the instance holds when `__init__` returns, which such a method may have stored (`self.w = None`, then
`self.populate()` storing a Parameter)."""

from __future__ import annotations

import libcst as cst

from jitlint.facts import RunFact
from jitlint.facts.syntax import OneScope
from jitlint.names import first_param_name
from jitlint.project import ClassInfo, ProjectIndex
from jitlint.walk import walk


class InitHelpers(RunFact):
    """The methods the `__init__`s of a class and its bases call on the instance (`self.populate()`), and the
    methods those call, transitively: each is resolved on the class (a subclass's override is the one that runs)."""

    @classmethod
    def compute(cls, project: ProjectIndex, owner: ClassInfo) -> frozenset[str]:
        found: set[str] = set()
        pending = [init for init in (current.methods.get("__init__") for current in project.mro(owner)) if init]
        while pending:
            method = pending.pop()
            self_name = first_param_name(method.node)
            called: set[str] = set()

            class Calls(OneScope):
                scope = method.node

                def visit_Call(self, node: cst.Call) -> None:
                    func = node.func
                    if (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
                            and func.value.value == self_name):
                        called.add(func.attr.value)

            walk(method.node, Calls())
            for name in sorted(called - found - {"__init__"}):
                helper = project.find_method(owner, name)
                if helper is not None:
                    found.add(name)
                    pending.append(helper)
        return frozenset(found)


def stored_values(method: cst.FunctionDef, self_name: str | None, name: str) -> list[cst.BaseExpression | None]:
    """The values `method` (not its nested functions) stores in `self.<name>`: None for a store whose value is not
    one expression (an unpacking, an augmented assignment, `setattr`)."""
    found: list[cst.BaseExpression | None] = []

    def stores(target: cst.BaseExpression) -> bool:
        return (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name)
                and target.value.value == self_name and target.attr.value == name)

    def unpacks(target: cst.BaseExpression) -> bool:
        return isinstance(target, (cst.Tuple, cst.List)) and any(
            stores(element.value) or unpacks(element.value) for element in target.elements)

    class Stores(OneScope):
        scope = method

        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                if stores(target.target):
                    found.append(node.value)
                elif unpacks(target.target):
                    found.append(None)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            if stores(node.target):
                found.append(node.value)

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            if stores(node.target):
                found.append(None)

        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Name) and node.func.value == "setattr":
                found.append(None)

    walk(method, Stores())
    return found

"""The modules `__init__` puts into a container attribute it creates empty: `self.blocks = nn.ModuleList()` (or
`nn.Sequential()`), then `self.blocks.append(Block())`, `self.blocks.extend([A(), B()])`, `self.blocks += [C()]`.
torch runs `__init__` before tracing, so the container holds exactly what these statements added."""

from __future__ import annotations

import libcst as cst

from jitlint.names import first_param_name

_COMPOUND = (cst.For, cst.While, cst.If, cst.With, cst.Try, cst.FunctionDef, cst.ClassDef, cst.Lambda)
# Where an addition may not happen at all (a branch, a handler, a nested function): its module is not known to be there.
_MAYBE = (cst.While, cst.If, cst.Try, cst.FunctionDef, cst.ClassDef, cst.Lambda)


class _Appends(cst.CSTVisitor):
    def __init__(self, self_name: str, attribute: str) -> None:
        self.self_name = self_name
        self.attribute = attribute
        self.items: list[cst.BaseExpression | None] = []
        self.ordered = True  # every addition is a statement of the body itself, in source order
        self.nesting = 0
        self.maybe = 0

    def _is_attribute(self, node: cst.BaseExpression) -> bool:
        return (isinstance(node, cst.Attribute) and node.attr.value == self.attribute
                and isinstance(node.value, cst.Name) and node.value.value == self.self_name)

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, _COMPOUND):
            self.nesting += 1
        if isinstance(node, _MAYBE):
            self.maybe += 1
        return super().on_visit(node)

    def on_leave(self, original_node: cst.CSTNode) -> None:
        if isinstance(original_node, _COMPOUND):
            self.nesting -= 1
        if isinstance(original_node, _MAYBE):
            self.maybe -= 1
        super().on_leave(original_node)

    def _add(self, items: list[cst.BaseExpression | None]) -> None:
        if self.nesting > 1:  # the function itself is one
            self.ordered = False
        self.items += [None] * len(items) if self.maybe > 1 else items

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not (isinstance(func, cst.Attribute) and self._is_attribute(func.value)):
            return
        method = func.attr.value
        if method == "append" and len(node.args) == 1 and not node.args[0].star:
            self._add([node.args[0].value])
        elif method == "extend" and len(node.args) == 1 and not node.args[0].star:
            self._add(_elements(node.args[0].value))
        elif method in ("insert", "add_module", "update", "__setitem__"):
            self._add([None])

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if self._is_attribute(node.target) and isinstance(node.operator, cst.AddAssign):
            self._add(_elements(node.value))

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        if isinstance(node.target, cst.Subscript) and self._is_attribute(node.target.value):
            self._add([None])  # an item replaced: not followed


def _elements(node: cst.BaseExpression) -> list[cst.BaseExpression | None]:
    if isinstance(node, (cst.List, cst.Tuple)):
        return [e.value if isinstance(e, cst.Element) else None for e in node.elements]
    return [None]


def appended(init: cst.FunctionDef, attribute: str) -> tuple[list[cst.BaseExpression | None], bool]:
    """What `__init__` adds to `self.<attribute>` after creating it empty: the expressions in source order (None
    for one not known), and whether that is the container's order (no addition in a loop or a branch)."""
    self_name = first_param_name(init)
    if self_name is None:
        return [None], False
    collector = _Appends(self_name, attribute)
    init.visit(collector)
    return collector.items, collector.ordered

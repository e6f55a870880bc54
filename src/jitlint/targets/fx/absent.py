"""Attributes a module built with its constructor's defaults does not have, for the tracing model
(`jitlint.targets.fx.tracing`).

`self.proj = nn.Linear(...)` under `if context_dim is not None:` in `__init__` leaves the module without `proj`
when `context_dim` keeps its default `None`. Eagerly, the forward reads `self.proj` only under `if context is not
None:`, which the default call skips; `symbolic_trace` makes `context` a placeholder Proxy (defaulted parameters
too: `Tracer.create_args_for_root`), the test is True, and `nn.Module.__getattr__` raises AttributeError at the
read. The model checked is the one built with the defaults (as for configuration flags).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from jitlint.names import first_param_name
from jitlint.targets.fx.literals import NOT_CONSTANT, literal_value

_UNDECIDED = object()


@dataclass(frozen=True)
class Skipped:
    """Why an attribute is absent: the `__init__` test that skips every assignment of it, as written."""

    test: str
    when: bool  # the assignment runs where the test is this (False: in its `else`)


def absent_with_defaults(project, cls, name: str) -> Skipped | None:
    """Whether every assignment of `self.<name>` is skipped when `cls` is built with its defaults: all of them are
    in `cls`'s own `__init__`, each under an `if` (or `else`) whose test the defaults of that `__init__`'s parameters
    decide against it; the attribute is not a class attribute, not registered, and no class of the MRO defines
    `__getattr__`/`__getattribute__` or is outside the project (other than torch.nn.Module)."""
    info = project.attributes(cls).get(name)
    if info is None or info.assigned_in != frozenset({"__init__"}) or info.registered or info.class_value is not None:
        return None
    init = cls.methods.get("__init__")
    if init is None:
        return None
    for current in project.mro(cls):
        if any(method in current.methods for method in ("__getattr__", "__getattribute__", "__setattr__")):
            return None
        if current is not cls and _assigns(current.methods.get("__init__"), name):
            return None  # a base's `__init__` decides it with what the subclass passes
    defaults = _defaults(init.node)
    if defaults is None:
        return None
    sites: list[list[tuple[cst.BaseExpression, bool]]] = []
    _collect(init.node.body, (first_param_name(init.node), name), [], sites)
    if not sites:
        return None
    skipped_by: Skipped | None = None
    for guards in sites:
        against = next(((test, polarity) for test, polarity in guards
                        if (value := _decide(test, defaults)) is not _UNDECIDED and bool(value) != polarity), None)
        if against is None:
            return None  # an assignment the defaults may run
        skipped_by = skipped_by or Skipped(cst.Module([]).code_for_node(against[0]), against[1])
    return skipped_by


def _defaults(init: cst.FunctionDef) -> dict[str, object] | None:
    """`__init__`'s parameters with a literal default (None when `**kwargs`/`setattr` may set anything), minus
    those `__init__` rebinds."""
    params = init.params
    found: dict[str, object] = {}
    for param in (*params.params, *params.kwonly_params):
        if param.default is not None:
            value = literal_value(param.default)
            if value is not NOT_CONSTANT:
                found[param.name.value] = value
    rebound = _Rebound()
    init.body.visit(rebound)
    if rebound.setattr:
        return None
    return {key: value for key, value in found.items() if key not in rebound.names}


class _Rebound(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: set[str] = set()
        self.setattr = False

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._targets(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._targets(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._targets(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._targets(node.target)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._targets(node.target)

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value in ("setattr", "exec", "locals", "vars"):
            self.setattr = True
        if isinstance(node.func, cst.Attribute) and node.func.attr.value in ("__setattr__", "update"):
            self.setattr = True

    def _targets(self, target: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            self.names.add(target.value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._targets(element.value)
        elif isinstance(target, cst.StarredElement):
            self._targets(target.value)


def _assigns(init, name: str) -> bool:
    if init is None:
        return False
    sites: list = []
    _collect(init.node.body, (first_param_name(init.node), name), [], sites)
    return bool(sites)


def _collect(body, name: tuple, guards: list, sites: list) -> None:
    """Appends, for each assignment of `self.<name>` in `body`, the `if` tests around it as `(test, polarity)`
    (polarity False: in the `else`/`elif` part)."""
    statements = body.body if isinstance(body, cst.BaseSuite) and not isinstance(body, cst.SimpleStatementSuite) else (
        [body] if isinstance(body, cst.SimpleStatementSuite) else body)
    for statement in statements:
        if isinstance(statement, cst.If):
            _collect(statement.body, name, [*guards, (statement.test, True)], sites)
            orelse = statement.orelse
            if isinstance(orelse, cst.If):
                _collect([orelse], name, [*guards, (statement.test, False)], sites)
            elif isinstance(orelse, cst.Else):
                _collect(orelse.body, name, [*guards, (statement.test, False)], sites)
            continue
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            continue
        if isinstance(statement, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            if any(_assigns_here(small, name) for small in statement.body):
                sites.append(guards)
            continue
        for child in _blocks(statement):
            _collect(child, name, guards, sites)


def _blocks(statement) -> list:
    blocks = []
    for attribute in ("body", "orelse", "finalbody"):
        part = getattr(statement, attribute, None)
        if isinstance(part, cst.BaseSuite):
            blocks.append(part)
        elif isinstance(part, (cst.Else, cst.Finally)):
            blocks.append(part.body)
    for handler in getattr(statement, "handlers", ()):
        blocks.append(handler.body)
    return blocks


def _assigns_here(small: cst.BaseSmallStatement, name: tuple) -> bool:
    targets = []
    if isinstance(small, cst.Assign):
        targets = [t.target for t in small.targets]
    elif isinstance(small, (cst.AnnAssign, cst.AugAssign)):
        targets = [small.target]
    return any(_is_self_attribute(target, name) for target in targets)


def _is_self_attribute(target: cst.BaseExpression, name: tuple) -> bool:
    if isinstance(target, (cst.Tuple, cst.List)):
        return any(_is_self_attribute(element.value, name) for element in target.elements)
    self_name, attribute = name
    return (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name)
            and target.value.value == self_name and target.attr.value == attribute)


def _decide(test, defaults: dict[str, object]):
    """The value of an `if` test with `__init__`'s parameters at their defaults: a parameter, `p is None`,
    `p is not None`, `not`, `and`/`or` of those; `_UNDECIDED` for anything else."""
    if isinstance(test, cst.Name):
        if test.value in defaults:
            return defaults[test.value]
        value = literal_value(test)
        return _UNDECIDED if value is NOT_CONSTANT else value
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        value = _decide(test.expression, defaults)
        return _UNDECIDED if value is _UNDECIDED else not value
    if isinstance(test, cst.BooleanOperation):
        left = _decide(test.left, defaults)
        is_and = isinstance(test.operator, cst.And)
        if left is not _UNDECIDED and bool(left) != is_and:
            return left
        right = _decide(test.right, defaults)
        if left is _UNDECIDED:
            return right if right is not _UNDECIDED and bool(right) != is_and else _UNDECIDED
        return right
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        target = test.comparisons[0]
        if isinstance(target.operator, (cst.Is, cst.IsNot)) and literal_value(target.comparator) is None:
            left = _decide(test.left, defaults)
            if left is _UNDECIDED:
                return _UNDECIDED
            return (left is None) == isinstance(target.operator, cst.Is)
    return _UNDECIDED

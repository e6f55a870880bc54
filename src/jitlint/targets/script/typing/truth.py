"""Values torch makes a bool of and cannot: the operands of every condition (`if`, `while`, `assert`, an
if-expression's test) and of `not`, `and`, `or` anywhere (`n = n or len(xs)`), each emitted through
`to_ir::emitToBool` (torch/csrc/jit/frontend/ir_emitter.cpp: 'Could not cast value of type T to bool')."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jitlint.targets.script.typing.annotations import Reader
from jitlint.targets.script.typing.results import CallableTruth, ClassProblem, NoTruthValue, Result, TupleMisuse
from jitlint.targets.script.typing.types import BOOL, NONE, Type

if TYPE_CHECKING:
    from jitlint.targets.script.typing.checkexpr import Scope


def truth_problems(test: cst.BaseExpression, types: dict, scope: "Scope") -> list[Result]:
    """What torch rejects among the operands `test` makes a bool of, given the types the typer recorded: a class
    whose `__bool__` returns no bool, a tuple, an Optional, a Union with None, None, a Device, and a module attribute that
    holds a `Callable` parameter of `__init__` (a function, a module or None)."""
    found: list[Result] = []
    for operand in truth_operands(test):
        value = types.get(id(operand))
        if value is None and isinstance(operand, cst.Attribute):
            found += _callable_truth(operand, types, scope)
            continue
        if isinstance(value, Type) and value.name == "Class":
            cls = scope.project.resolve_class(value.qualname)
            method = scope.project.find_method(cls, "__bool__") if cls is not None else None
            if method is not None and method.node.returns is not None:
                returns = Reader(method.module.imports, scope.project).read(method.node.returns.annotation)
                if returns is not None and returns != BOOL:
                    found.append(ClassProblem(operand, cls.name, "bool-return", type=returns))
            continue
        if isinstance(value, Type) and value.fully_known and (
                value.name in ("Tuple", "Optional", "Device") or (value.name == "Union" and NONE in value.args)):
            found.append(TupleMisuse(operand, value, "truth") if value.name == "Tuple" else NoTruthValue(operand, value))
        elif value == NONE and isinstance(operand, cst.Name):
            # `if None:`, or a local holding None: torch has no `aten::Bool` of None (a module attribute holding None
            # is left out: what `__init__` leaves there is the attributes' typing's to say)
            found.append(NoTruthValue(operand, value))
    return found


def _callable_truth(operand: cst.Attribute, types: dict, scope: "Scope") -> list[Result]:
    """`self.fn`, where every module class the method is compiled for stores a `Callable` parameter of its
    `__init__` in `fn` (`ModuleMembers.callable_parameter`)."""
    base = types.get(id(operand.value))
    if getattr(base, "kind", None) != "self-module" or not scope.owners:  # `self` of a module's method
        return []
    name = operand.attr.value
    found = {scope.members.callable_parameter(owner, name) for owner in scope.owners}
    return [CallableTruth(operand, name, found.pop())] if len(found) == 1 and None not in found else []


def truth_operands(test: cst.BaseExpression) -> list[cst.BaseExpression]:
    """The operands of a condition torch converts to bool one by one (through `not`, `and`, `or`); comparisons and
    calls give a bool (or are checked as calls)."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return truth_operands(test.expression)
    if isinstance(test, cst.BooleanOperation):
        return truth_operands(test.left) + truth_operands(test.right)
    if isinstance(test, (cst.Comparison, cst.Call)):
        return []
    return [test]

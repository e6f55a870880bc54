"""Narrowing: what a condition tells the typer, as the frontend's `emitCondExpr` computes it.

A condition has a static value when torch decides it while compiling, and then only one branch is compiled at all
(`emitIfElseBlocks`: a "static if"):

- `x is None` / `x is not None` where one side is always None (the literal, a value of type NoneType) and the other
  can never be (its type is no Optional, Union with None or Any), or both are always None;
- `isinstance(x, T)` when x's type is a subtype of T (True) or no T can be a value of x's type (False);
- `hasattr(obj, "name")` (the module or class has the attribute or not);
- `torch.jit.is_scripting()` (True), a constant bool (a literal, a module-level constant, a `Final` or
  `__constants__` attribute of the module);
- `not`, `and` and `or` of those (`False and x` is False, `True or x` is True).

Refinements are what a branch knows of a local variable: `x is not None` makes an `Optional[T]` local a T in the true
branch (`is None`: in the false branch), `isinstance(x, T)` makes it a T where T is a subtype of its type. `and`
keeps both sides' refinements when true and what both share when false; `or` the converse; `not` swaps them. The
right side of `and`/`or` is typed with the left side's refinements (`x is not None and x.sum() > 0`). Only local
names are refined, never attributes.

When a condition is one torch decides but jitlint cannot tell how (the None-ness of an attribute whose type is
unknown, `isinstance` of a value of unknown type), it is `uncertain`: the checker then walks both branches as if
either alone may be compiled, and reports nothing that depends on which.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import libcst as cst

from jitlint.targets.script.typing.types import (
    ANY, ANY_LIST, ANY_TUPLE, BOOL, NONE, Type, subtype, union_of, without_none,
)

if TYPE_CHECKING:
    from jitlint.targets.script.typing.checkexpr import ExpressionChecker

Refinements = dict[str, Type]


@dataclass
class Condition:
    """A condition's static value (None: decided at run time), whether torch decides it in a way jitlint cannot
    tell (`uncertain`), and the refinements of each branch."""

    static: bool | None = None
    uncertain: bool = False
    true: Refinements = field(default_factory=dict)
    false: Refinements = field(default_factory=dict)

    def when_true(self, env: dict) -> dict:
        return _refined(env, self.true)

    def when_false(self, env: dict) -> dict:
        return _refined(env, self.false)

    def negated(self) -> "Condition":
        return Condition(None if self.static is None else not self.static, self.uncertain, self.false, self.true)


def _refined(env: dict, refinements: Refinements) -> dict:
    if not refinements:
        return env
    result = dict(env)
    result.update(refinements)
    return result


def _union(a: Refinements, b: Refinements) -> Refinements:
    result = dict(a)
    for name, kind in b.items():
        if name in result and result[name] != kind:
            del result[name]  # `isinstance(x, float) and isinstance(x, int)`: not refined
        else:
            result[name] = kind
    return result


def _intersect(a: Refinements, b: Refinements) -> Refinements:
    return {name: kind for name, kind in a.items() if b.get(name) == kind}


def _none_status(value, node: cst.BaseExpression) -> str | None:
    """`canBeNone`: "always" (None itself, a NoneType value), "maybe" (an Optional, a Union with None), "never",
    or None when the type is unknown."""
    if isinstance(node, cst.Name) and node.value == "None":
        return "always"
    if not isinstance(value, Type):
        from jitlint.targets.script.typing.values import Sugared

        if isinstance(value, Sugared) and value.kind in ("module", "function", "method", "class", "builtin",
                                                         "python-module"):
            return "never"
        return None
    if value == NONE:
        return "always"
    if value.name == "Optional" or (value.name == "Union" and NONE in value.args):
        return "maybe"
    if not value.fully_known and value.name in ("Optional", "Union"):
        return None
    return "never"


def condition(test: cst.BaseExpression, env: dict, checker: "ExpressionChecker") -> Condition:
    """Type `test` as a condition (each part once) and say what it decides."""
    found = _condition(test, env, checker)
    if isinstance(test, (cst.BooleanOperation, cst.UnaryOperation, cst.Comparison, cst.Call)):
        checker.types[id(test)] = BOOL
    return found


def _condition(test: cst.BaseExpression, env: dict, checker: "ExpressionChecker") -> Condition:
    if isinstance(test, cst.BooleanOperation):
        is_or = isinstance(test.operator, cst.Or)
        left = _condition(test.left, env, checker)
        right_env = left.when_false(env) if is_or else left.when_true(env)
        right = _condition(test.right, right_env, checker)
        if is_or:
            true, false = _intersect(left.true, right.true), _union(left.false, right.false)
            if left.static is True or right.static is True:
                static = True
            elif left.static is not None and right.static is not None:
                static = left.static or right.static
            else:
                static = None
        else:
            true, false = _union(left.true, right.true), _intersect(left.false, right.false)
            if left.static is False or right.static is False:
                static = False
            elif left.static is not None and right.static is not None:
                static = left.static and right.static
            else:
                static = None
        uncertain = static is None and (left.uncertain or right.uncertain)
        return Condition(static, uncertain, true, false)
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = _condition(test.expression, env, checker)
        return inner.negated()
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1 and isinstance(
            test.comparisons[0].operator, (cst.Is, cst.IsNot)):
        return _is_none(test, env, checker)
    if isinstance(test, cst.Comparison) and len(test.comparisons) > 1 and any(
            isinstance(c.operator, (cst.Is, cst.IsNot)) for c in test.comparisons):
        checker.expr(test, env)
        return Condition(uncertain=True)
    if isinstance(test, cst.Call):
        qualified = checker.scope.imports.qualify(test.func)
        local = isinstance(test.func, cst.Name) and test.func.value in env
        if not local and qualified in ("builtins.isinstance", "torch.jit.isinstance") and len(test.args) == 2:
            return _isinstance(test, env, checker, torch_jit=qualified == "torch.jit.isinstance")
        if not local and qualified == "builtins.hasattr" and len(test.args) == 2:
            return _hasattr(test, env, checker)
        if qualified in ("torch.jit.is_scripting", "torch._C._is_scripting"):
            checker.expr(test, env)
            return Condition(static=True)
    value = checker.expr(test, env)
    if checker.misused(test, value, "value"):
        return Condition(uncertain=True)
    return _truth(test, value, checker)


def _is_none(test: cst.Comparison, env: dict, checker: "ExpressionChecker") -> Condition:
    left_node, target = test.left, test.comparisons[0]
    right_node = target.comparator
    is_not = isinstance(target.operator, cst.IsNot)
    left = checker.expr(left_node, env)
    right = checker.expr(right_node, env)
    # `is` compares values: each side must be one (a module-level Python value is not)
    if checker.misused(left_node, left, "value") | checker.misused(right_node, right, "value"):
        return Condition(uncertain=True)
    left_none, right_none = _none_status(left, left_node), _none_status(right, right_node)
    if left_none == "always" and right_none == "always":
        return Condition(static=not is_not)
    if (left_none, right_none) in (("always", "never"), ("never", "always")):
        return Condition(static=is_not)
    if None in (left_none, right_none):
        return Condition(uncertain=True)
    # refinements: `var is None` (or `None is var`) of an Optional local
    if isinstance(left_node, cst.Name) and left_node.value == "None":
        left_node, right_node, left = right_node, left_node, right
    if (isinstance(right_node, cst.Name) and right_node.value == "None" and isinstance(left_node, cst.Name)
            and left_node.value in env and isinstance(left, Type) and left.fully_known
            and (left.name == "Optional" or (left.name == "Union" and NONE in left.args))):
        present = {left_node.value: without_none(left)}
        return Condition(true=present, false={}) if is_not else Condition(true={}, false=present)
    return Condition()


def _isinstance_types(node: cst.BaseExpression, checker: "ExpressionChecker") -> list[Type | None]:
    """The types an `isinstance` test names (`ScriptTypeParser`: `list` and `tuple` are any list and tuple)."""
    if isinstance(node, cst.Tuple):
        found: list[Type | None] = []
        for element in node.elements:
            found.extend(_isinstance_types(element.value, checker))
        return found
    qualified = checker.scope.imports.qualify(node)
    if qualified in ("builtins.list", "typing.List"):
        return [ANY_LIST]
    if qualified in ("builtins.tuple", "typing.Tuple"):
        return [ANY_TUPLE]
    return [checker.reader.read(node)]


def _isinstance(test: cst.Call, env: dict, checker: "ExpressionChecker", torch_jit: bool) -> Condition:
    """`emitIsInstance`: each member of the value's type (a Union's members, an Optional's element and None) that is a
    subtype of a tested type (or that a tested type is a subtype of: then that type) is what the value is when the
    test holds; the members no tested type can be are what it is otherwise. All members covered: statically True;
    none: statically False."""
    subject = test.args[0].value
    value = checker.expr(subject, env)
    types = _isinstance_types(test.args[1].value, checker)
    if not isinstance(value, Type) or any(kind is None for kind in types):
        from jitlint.targets.script.typing.values import Sugared

        if isinstance(value, Sugared) and value.kind in ("module", "self-module") and all(
                kind is not None and kind.name not in ("Module", "ModuleInterface", "Interface", "Class")
                for kind in types):
            return Condition(static=False)  # a module is no Tensor, int, list...
        return Condition(uncertain=True)
    members = list(value.members()) if value.name in ("Optional", "Union") else [value]
    if any(member is None or not member.fully_known for member in members):
        return Condition(uncertain=True)
    true_types: list[Type] = []
    false_types: list[Type] = []
    covered = True
    for member in members:
        if member == ANY:
            true_types.extend(types)
            false_types.append(ANY)
            covered = len(types) == 1 and types[0] == ANY
            break
        found: Type | None = None
        for kind in types:
            if subtype(member, kind) is True:
                found = member
            elif subtype(kind, member) is True:
                found = kind if found is None else union_of([found, kind])
        if found is not None:
            true_types.append(found)
            if found != member:
                covered = False
        else:
            false_types.append(member)
            covered = False
    refinements_true: Refinements = {}
    refinements_false: Refinements = {}
    local = isinstance(subject, cst.Name) and subject.value in env
    if local and true_types:
        joined = union_of(true_types)
        if joined is not None:
            refinements_true = {subject.value: joined}
    if local and false_types:
        joined = union_of(false_types)
        if joined is not None:
            refinements_false = {subject.value: joined}
    if covered:
        return Condition(static=True, true=refinements_true, false=refinements_false)
    if not true_types:
        return Condition(static=False, true=refinements_true, false=refinements_false)
    return Condition(true=refinements_true, false=refinements_false)


def _statically_false(value: Type, kind: Type) -> bool:
    if subtype(kind, value) is not False:
        return False
    members = value.members() if value.name in ("Optional", "Union") else (value,)
    if value == ANY:
        return False
    if kind == ANY_LIST and any(m is not None and m.name == "List" for m in members):
        return False
    if kind == ANY_TUPLE and any(m is not None and m.name == "Tuple" for m in members):
        return False
    return True


def _hasattr(test: cst.Call, env: dict, checker: "ExpressionChecker") -> Condition:
    subject = checker.expr(test.args[0].value, env)
    name_node = test.args[1].value
    if not isinstance(name_node, cst.SimpleString) or not isinstance(name_node.evaluated_value, str):
        return Condition(uncertain=True)
    answer = checker.has_attribute(subject, name_node.evaluated_value)
    if answer is None:
        return Condition(uncertain=True)
    return Condition(static=answer)


def _truth(test: cst.BaseExpression, value, checker: "ExpressionChecker") -> Condition:
    """A value tested for truth: a bool constant decides statically."""
    constant = checker.constant_bool(test, value)
    if constant is not None:
        return Condition(static=constant) if constant != "uncertain" else Condition(uncertain=True)
    return Condition()

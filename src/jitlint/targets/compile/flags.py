"""Configuration flags Dynamo decides while tracing: the code a module's off-by-default flag guards.

A bool attribute of a module (`self.self_condition`, set in `__init__`) is a Python constant to Dynamo: it wraps it
as a `ConstantVariable` guarded by `CONSTANT_MATCH` (`torch/_dynamo/variables/builder.py`, `wrap_literal` and the
bool case), so `if self.flag:` and `self.flag and f()` are decided at trace time and the other side is never traced.
A call Dynamo would break on (`random.random()`, `print`) under a flag that is False in the module as built with the
defaults of `__init__` is not traced in that module: no graph break (verified on torch 2.13: `self.flag and
random.random() < 0.5` compiles in one graph with the flag False, breaks at the call with it True).

Which flags are decided, and to what, is the shared fact `jitlint.facts.config_flags` (the fx target reads it too).
`self.training` is not a flag here (torch.compile is used in both modes; the capture policy does not fold it either).
"""

from __future__ import annotations

import libcst as cst

from jitlint.pruning import NOT_LOGIC, fold_logic
from jitlint.facts import Fact
from jitlint.facts.config_flags import class_flag
from jitlint.names import first_param_name
from jitlint.rules.base import RuleContext
from jitlint.walk import walk

__all__ = ["OffByDefault", "flag_test"]


def flag_test(project, owners, self_name: str, test: cst.BaseExpression) -> bool | None:
    """The value of `test` in a method of `owners` (its instance `self_name`) when it is decided by configuration
    flags alone (`self.flag`, and `not`/`and`/`or` of such tests and of literals), else None."""
    if (isinstance(test, cst.Attribute) and isinstance(test.value, cst.Name) and test.value.value == self_name
            and test.attr.value != "training"):
        values = {class_flag(project, owner, test.attr.value) for owner in owners}
        return values.pop() if len(values) == 1 else None
    folded = fold_logic(test, lambda part: flag_test(project, owners, self_name, part))
    return None if folded is NOT_LOGIC else folded


class OffByDefault(Fact):
    """The ids of the calls of a traced method that run only when a configuration flag of its module holds that is
    False in the default-configured module (`if self.flag: ...`, `self.flag and f()`, the other side for `not`,
    `or`): Dynamo decides the flag while tracing and never traces them there."""

    @classmethod
    def compute(cls, ctx: RuleContext, node: cst.FunctionDef) -> frozenset[int]:
        function = ctx.function
        if function is None or function.info.node is not node or function.info.bound_first_param != "instance":
            return frozenset()
        self_name = first_param_name(node)
        owners = function.owners
        if self_name is None or not owners:
            return frozenset()
        project = ctx.project

        def value_of(test: cst.BaseExpression) -> bool | None:
            return flag_test(project, owners, self_name, test)

        off: set[int] = set()

        class Guarded(cst.CSTVisitor):
            def __init__(self) -> None:
                self.depth = 0

            def visit_FunctionDef(self, inner: cst.FunctionDef) -> bool:
                return inner is node

            def visit_Lambda(self, inner: cst.Lambda) -> bool:
                return False

            def visit_ClassDef(self, inner: cst.ClassDef) -> bool:
                return False

            def visit_Call(self, call: cst.Call) -> None:
                if self.depth:
                    off.add(id(call))

            def _dead(self, part: cst.CSTNode | None) -> None:
                if part is not None:
                    self.depth += 1
                    part.visit(self)
                    self.depth -= 1

            def _branches(self, test, body, orelse) -> bool:
                test.visit(self)
                value = value_of(test)
                (self._dead if value is False else lambda part: part.visit(self))(body)
                if orelse is not None:
                    (self._dead if value is True else lambda part: part.visit(self))(orelse)
                return False

            def visit_If(self, branch: cst.If) -> bool:
                return self._branches(branch.test, branch.body, branch.orelse)

            def visit_IfExp(self, branch: cst.IfExp) -> bool:
                return self._branches(branch.test, branch.body, branch.orelse)

            def visit_BooleanOperation(self, operation: cst.BooleanOperation) -> bool:
                operation.left.visit(self)
                left = value_of(operation.left)
                short = left is False if isinstance(operation.operator, cst.And) else left is True
                (self._dead if short else lambda part: part.visit(self))(operation.right)
                return False

        walk(node.body, Guarded())
        return frozenset(off)

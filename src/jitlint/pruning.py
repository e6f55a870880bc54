"""Pruned code: the tests a capture decides while it runs (`torch.jit.is_scripting()`, `self.training`, flags) and
the live code of a captured function that follows from them. Target-neutral: each capture policy
(`jitlint.capture.CapturePolicy.scanner`) gives its own answers, as a table for `fold_checks`/`CheckScanner` or as a
`PruningScanner` subclass of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

import libcst as cst


def terminates(block: cst.BaseSuite) -> bool:
    """Whether a block always ends in `return` or `raise`."""
    statements = block.body if isinstance(block, cst.IndentedBlock) else [block]
    if not statements:
        return False
    last = statements[-1]
    if isinstance(last, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        return bool(last.body) and isinstance(last.body[-1], (cst.Return, cst.Raise))
    if isinstance(last, cst.If):
        return last.orelse is not None and terminates(last.body) and orelse_terminates(last.orelse)
    return False


def orelse_terminates(orelse: cst.If | cst.Else) -> bool:
    if isinstance(orelse, cst.Else):
        return terminates(orelse.body)
    return terminates(orelse.body) and orelse.orelse is not None and orelse_terminates(orelse.orelse)


@dataclass
class FunctionScan:
    """One pass over a function body: its pruned branches and what its live code calls."""

    pruned: set[int] = field(default_factory=set)
    calls: list[cst.Call] = field(default_factory=list)


NOT_LOGIC = object()


def fold_logic(test: cst.BaseExpression, value_of):
    """`not a`, `a and b`, `a or b` folded three-valued (True, False, or None: unknown) from what `value_of` says of
    the operands, as every capture prunes its guards (`cond and not is_scripting()` is False, `is_scripting() or
    cond` True, `is_scripting() and cond` unknown); `NOT_LOGIC` for any other expression."""
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = value_of(test.expression)
        return None if inner is None else not inner
    if isinstance(test, cst.BooleanOperation):
        left, right = value_of(test.left), value_of(test.right)
        if isinstance(test.operator, cst.And):
            if left is False or right is False:
                return False
            return True if (left is True and right is True) else None
        if left is True or right is True:
            return True
        return False if (left is False and right is False) else None
    return NOT_LOGIC


def fold_checks(test: cst.BaseExpression, imports, values: "Mapping[str, bool | None]",
                self_name: str | None = None, call: Callable[[str], bool | None] | None = None) -> bool | None:
    """The constant a test has while a capture runs: a call without arguments of one of `values`' functions (that
    capture's answer to `torch.jit.is_scripting()` and the like; an answer that is not a bool is not folded),
    `self.training` when `self_name` is given (False: the eval-mode model the target judges), and `not`/`and`/`or`
    of such tests (`fold_logic`); `call(qualified)` answers a call of any other function. None: not a constant."""
    if (self_name is not None and isinstance(test, cst.Attribute) and test.attr.value == "training"
            and isinstance(test.value, cst.Name) and test.value.value == self_name):
        return False
    if isinstance(test, cst.Call):
        if test.args:
            return None
        qualified = imports.qualify(test.func) or ""
        if qualified in values:
            value = values[qualified]
            return value if isinstance(value, bool) else None
        return call(qualified) if call is not None and qualified else None
    folded = fold_logic(test, lambda operand: fold_checks(operand, imports, values, self_name, call))
    return None if folded is NOT_LOGIC else folded


class PruningScanner(cst.CSTVisitor):
    """Walks a captured function's live code: records the calls and the branches `fold` decides. A policy
    subclasses it to fold the tests its capture folds (the base folds nothing)."""

    folds_asserts = False  # an `assert` of a test folded to False ends the live code (torch.jit.script's emitter)

    def __init__(self, root: cst.FunctionDef) -> None:
        self.root = root
        self.scan = FunctionScan()

    def fold(self, test: cst.BaseExpression) -> bool | None:
        """The constant value a test has during capture, or None when it is not folded."""
        return None

    def fold_expression(self, test: cst.BaseExpression) -> bool | None:
        """`fold` for the test of a conditional expression (a capture may fold fewer of those)."""
        return self.fold(test)

    def on_visit(self, node: cst.CSTNode) -> bool:
        if id(node) in self.scan.pruned:
            return False
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)) and node is not self.root:
            return False
        # Python evaluates the decorators, the parameters' defaults and the annotations when it runs the `def`:
        # the capture is given their values (a default is converted to its parameter's type), never their code.
        if node is self.root.params or node is self.root.returns or any(node is d for d in self.root.decorators):
            return False
        return super().on_visit(node)

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._prune_after_leaving_branch(node.body)

    def _prune_after_leaving_branch(self, statements) -> None:
        """Code after an `if` whose live branch always leaves (`if is_scripting(): return ...`) is pruned, and code
        after an `assert` whose test folds to False (it always raises) for a policy that `folds_asserts`."""
        for index, statement in enumerate(statements):
            if self.folds_asserts and isinstance(statement, cst.SimpleStatementLine) and any(
                    isinstance(small, cst.Assert) and self.fold(small.test) is False for small in statement.body):
                self.scan.pruned.update(id(rest) for rest in statements[index + 1 :])
                return
            if not isinstance(statement, cst.If):
                continue
            value = self.fold(statement.test)
            live_terminates = (value is True and terminates(statement.body)) or (
                value is False and statement.orelse is not None and orelse_terminates(statement.orelse)
            )
            if live_terminates:
                self.scan.pruned.update(id(rest) for rest in statements[index + 1 :])
                return

    def visit_If(self, node: cst.If) -> None:
        value = self.fold(node.test)
        if value is True and node.orelse is not None:
            self.scan.pruned.add(id(node.orelse))
        elif value is False:
            self.scan.pruned.add(id(node.body))

    def visit_IfExp(self, node: cst.IfExp) -> None:
        value = self.fold_expression(node.test)
        if value is True:
            self.scan.pruned.add(id(node.orelse))
        elif value is False:
            self.scan.pruned.add(id(node.body))

    def visit_Call(self, node: cst.Call) -> None:
        self.scan.calls.append(node)



class CheckScanner(PruningScanner):
    """A scanner that folds the tests `fold_checks` folds, with a capture's table of answers."""

    def __init__(self, root: cst.FunctionDef, imports, values: "Mapping[str, bool | None]",
                 self_name: str | None = None, call: Callable[[str], bool | None] | None = None) -> None:
        super().__init__(root)
        self.imports = imports
        self.values = values
        self.self_name = self_name
        self.call = call

    def fold(self, test: cst.BaseExpression) -> bool | None:
        return fold_checks(test, self.imports, self.values, self.self_name, self.call)

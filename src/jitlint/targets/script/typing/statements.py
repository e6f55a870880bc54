"""What the typer reads of statements' syntax: the names a block assigns, whether a name is read, declaration
bodies."""

from __future__ import annotations

import libcst as cst

from jitlint.facts.syntax import target_names


def reads_name(node: cst.CSTNode, name: str) -> bool:
    found = []

    class Find(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            if n.value == name:
                found.append(n)

    node.visit(Find())
    return bool(found)


def assigned_in(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class Collect(cst.CSTVisitor):
        def visit_AssignTarget(self, n: cst.AssignTarget) -> None:
            found.update(target_names(n.target))

        def visit_AnnAssign(self, n: cst.AnnAssign) -> None:
            found.update(target_names(n.target))

        def visit_AugAssign(self, n: cst.AugAssign) -> None:
            found.update(target_names(n.target))

        def visit_For(self, n: cst.For) -> None:
            found.update(target_names(n.target))

        def visit_FunctionDef(self, n: cst.FunctionDef) -> bool:
            return False

    node.visit(Collect())
    return found


def is_stub(statements: list) -> bool:
    """A body of a docstring, `...` or `pass` alone (a declaration)."""
    for statement in statements:
        if not isinstance(statement, cst.SimpleStatementLine):
            return False
        for small in statement.body:
            if isinstance(small, cst.Pass):
                continue
            if isinstance(small, cst.Expr) and isinstance(small.value, (cst.Ellipsis, cst.SimpleString,
                                                                         cst.ConcatenatedString)):
                continue
            return False
    return True

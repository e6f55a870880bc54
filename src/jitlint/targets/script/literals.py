"""Literals as TorchScript's frontend reads them, for the rules that look at defaults and indices: which expressions
are int or str literals, and the TorchScript type name of a literal default (`Tuple[int, int]`, `List`)."""

from __future__ import annotations

import libcst as cst

from jitlint.literals import literal_type as python_literal_type


def is_int_literal(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        node = node.expression
    return isinstance(node, cst.Integer)


def is_str_literal(node: cst.BaseExpression) -> bool:
    """A plain string literal (no f-string, no bytes), or an implicit concatenation of them."""
    if isinstance(node, cst.ConcatenatedString):
        return is_str_literal(node.left) and is_str_literal(node.right)
    return python_literal_type(node) == "str"


def literal_type(node: cst.BaseExpression) -> str | None:
    """The TorchScript type name of a literal default value, or None if it is not a plain literal."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        node = node.expression
    kind = python_literal_type(node)
    if kind in ("int", "float", "complex", "bool", "str"):
        return kind
    if is_str_literal(node):
        return "str"
    if isinstance(node, cst.Tuple):
        inner = [literal_type(element.value) for element in node.elements]
        if inner and all(inner):
            return f"Tuple[{', '.join(inner)}]"
        return "Tuple"
    if isinstance(node, cst.List):
        return "List"
    if isinstance(node, cst.Dict):
        return "Dict"
    return None

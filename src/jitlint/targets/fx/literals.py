"""What source literals say, for the tracing model (`jitlint.targets.fx.tracing`): the Python value of a constant
expression, constant folding of operators and comparisons on such values, and the module an optional attribute
(`X if cond else None`) holds when it is called."""

from __future__ import annotations

import libcst as cst

NOT_CONSTANT = object()  # what the functions below return for anything but a known value


def unless_none(node: cst.CSTNode) -> cst.CSTNode:
    """The module an attribute holds when it is called: `X if cond else None` (or `None if cond else X`) holds `X`
    whenever a call of it runs (calling None fails in eager too)."""
    while isinstance(node, cst.IfExp):
        if literal_value(node.orelse) is None:
            node = node.body
        elif literal_value(node.body) is None:
            node = node.orelse
        else:
            break
    return node


def literal_value(node: cst.BaseExpression):
    if isinstance(node, (cst.Integer, cst.Float)):
        return node.evaluated_value
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else NOT_CONSTANT
    if isinstance(node, cst.Name) and node.value in ("None", "True", "False"):
        return {"None": None, "True": True, "False": False}[node.value]
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = literal_value(node.expression)
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return -inner
    return NOT_CONSTANT


BINARY = {
    "Add": lambda a, b: a + b, "Subtract": lambda a, b: a - b, "Multiply": lambda a, b: a * b,
    "Divide": lambda a, b: a / b, "FloorDivide": lambda a, b: a // b, "Modulo": lambda a, b: a % b,
    "Power": lambda a, b: a ** b, "LeftShift": lambda a, b: a << b, "RightShift": lambda a, b: a >> b,
    "BitAnd": lambda a, b: a & b, "BitOr": lambda a, b: a | b, "BitXor": lambda a, b: a ^ b,
}
COMPARE = {
    "Equal": lambda a, b: a == b, "NotEqual": lambda a, b: a != b, "LessThan": lambda a, b: a < b,
    "LessThanEqual": lambda a, b: a <= b, "GreaterThan": lambda a, b: a > b, "GreaterThanEqual": lambda a, b: a >= b,
}


def fold_constants(left, right, operator: cst.CSTNode):
    name = type(operator).__name__.replace("Assign", "")
    function = BINARY.get(name)
    if function is None:
        return NOT_CONSTANT
    if name in ("Power", "LeftShift") and isinstance(right, int) and abs(right) > 64:
        return NOT_CONSTANT
    if isinstance(left, (str, tuple)) and name == "Multiply" and isinstance(right, int) and right > 64:
        return NOT_CONSTANT
    try:
        result = function(left, right)
    except Exception:  # noqa: BLE001
        return NOT_CONSTANT
    if isinstance(result, (int, float, str, bool, tuple)) or result is None:
        return result
    return NOT_CONSTANT


def compare_constants(left, right, operator: cst.CSTNode):
    function = COMPARE.get(type(operator).__name__)
    if function is None:
        return NOT_CONSTANT
    try:
        return bool(function(left, right))
    except Exception:  # noqa: BLE001
        return NOT_CONSTANT


def never_equal(left, right) -> bool:
    """Whether `left == right` is certainly False for these two known values (what `in` compares each item with)."""
    try:
        return not bool(left == right)
    except Exception:  # noqa: BLE001
        return False

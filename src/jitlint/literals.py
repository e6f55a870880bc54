"""The Python type and value of a literal: the one literal typer every target and the project index share.

Target-neutral: it names Python's types ("int", "float", "complex", "bool", "str", "bytes", "None"); each target
maps them to its own types.
"""

from __future__ import annotations

import libcst as cst


def literal_type(node: cst.BaseExpression) -> str | None:
    """The Python type of a literal atom: a number, `True`/`False`, `None`, or one plain string or bytes literal;
    None for anything else. Signs, f-strings and implicit concatenations (`"a" "b"`) are expressions around
    literals, left to the caller: typers disagree on purpose about those."""
    if isinstance(node, cst.Integer):
        return "int"
    if isinstance(node, cst.Float):
        return "float"
    if isinstance(node, cst.Imaginary):
        return "complex"
    if isinstance(node, cst.Name):
        if node.value in ("True", "False"):
            return "bool"
        return "None" if node.value == "None" else None
    if isinstance(node, cst.SimpleString):
        prefix = node.prefix.lower()
        if "f" in prefix:  # LibCST parses f-strings as FormattedString; kept for safety
            return None
        return "bytes" if "b" in prefix else "str"
    return None


UNKNOWN = object()  # a value that cannot be folded


def literal_value(node: cst.BaseExpression | None):
    """The Python value of a literal (`None`, `True`/`False`, an integer, a plain string), or UNKNOWN."""
    if node is None:
        return UNKNOWN
    if isinstance(node, cst.Name) and node.value in ("None", "True", "False"):
        return {"None": None, "True": True, "False": False}[node.value]
    if isinstance(node, cst.Integer):
        return int(node.value, 0) if not node.value.startswith("0") or node.value == "0" else UNKNOWN
    if isinstance(node, cst.SimpleString):
        return node.evaluated_value
    return UNKNOWN

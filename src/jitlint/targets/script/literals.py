"""Literals as TorchScript's frontend reads them, for the rules that look at defaults and indices: which expressions
are int or str literals, and the TorchScript type name of a literal default (`Tuple[int, int]`, `List`)."""

from __future__ import annotations

import libcst as cst

from jitlint.facts.torch_api import DTYPE_NAMES
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


def global_value_type(value: cst.BaseExpression, module_imports) -> str | None:
    """The Python type of a module-level value TorchScript rejects when compiled code reads the global."""
    kind = literal_type(value)
    if kind is not None:
        return kind.split("[")[0].lower()
    if isinstance(value, cst.Name) and value.value == "None":
        return "None"
    qualified = module_imports.qualify(value.func if isinstance(value, cst.Call) else value) or ""
    if isinstance(value, cst.Attribute) and qualified.startswith("torch.") and qualified[6:] in DTYPE_NAMES:
        return "dtype"
    if isinstance(value, cst.Call) and qualified.startswith("torch.") and qualified.count(".") == 1 and qualified[6:7].islower():
        return "Tensor"
    return None


def python_kind(value: cst.BaseExpression) -> str | None:
    """The Python type of a module-level display or constructor call (`{"a"}` is a set, `np.array(...)` ...)."""
    displays = {cst.Set: "set", cst.SetComp: "set", cst.Dict: "dict", cst.DictComp: "dict", cst.List: "list",
                cst.ListComp: "list", cst.Tuple: "tuple", cst.Lambda: "function"}
    for display, kind in displays.items():
        if isinstance(value, display):
            return kind
    return None

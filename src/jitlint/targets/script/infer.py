"""A small type inference over compiled functions that follows TorchScript's typing, not Python's.

Types are strings: "Tensor", "int", "float", "bool", "str", "None", "number" (what `.item()` returns),
"List[int]", "Optional[Tensor]", ... and `None` for unknown. Unknown is a type of its own: a rule that needs a type
says nothing when it gets None. What is known:

- parameters: their annotation (`typing`, PEP 585, PEP 604); unannotated ones are Tensor, or Optional[Tensor]
  with a `None` default;
- literals; `int()`, `float()`, `bool()`, `str()`, `len()`;
- Tensor methods and torch/functional calls from the tables below; `.size(i)`, `.dim()`, `.numel()` are int,
  `.size()`/`.shape` List[int], `.item()` a number, `.tolist()` a list TorchScript cannot type without a hint;
- arithmetic (a Tensor operand makes a Tensor; `/` of two ints is a float), comparisons, ternaries of one type;
- local variables, through `FlowTypes`, which the control-flow rules maintain as they walk a function.
"""

from __future__ import annotations

import libcst as cst

from jitlint.literals import literal_type
from jitlint.names import ImportTable

SCALARS = frozenset({"Tensor", "int", "float", "bool", "str", "None"})

# Tensor methods whose result is a Tensor (a list of the common ones; anything else is unknown).
TENSOR_METHODS = frozenset(
    "abs add addmm bmm ceil clamp clamp_min clamp_max clone contiguous cos cumsum detach div exp expand expand_as "
    "flatten flip float floor gather half int long log masked_fill matmul mean mm mul neg new_ones new_zeros "
    "new_full new_empty norm permute pow reciprocal relu repeat reshape reshape_as roll round rsqrt sigmoid sign "
    "sin softmax sqrt square squeeze sub sum t tanh to transpose tril triu type_as unsqueeze view view_as where "
    "bool double byte narrow index_select masked_select log_softmax argmax argmin mean".split()
)
# torch.* and torch.nn.functional.* functions whose result is a Tensor.
TORCH_FUNCTIONS = frozenset(
    f"torch.{name}"
    for name in "zeros ones zeros_like ones_like empty empty_like full full_like rand randn randn_like arange "
    "linspace cat stack tensor as_tensor where matmul bmm mm einsum relu sigmoid tanh exp log sqrt abs clamp "
    "softmax log_softmax flatten reshape transpose permute cumsum sum mean cos sin arange tril triu outer".split()
) | frozenset(
    f"torch.nn.functional.{name}"
    for name in "relu gelu silu sigmoid tanh softmax log_softmax linear conv1d conv2d conv3d dropout layer_norm "
    "group_norm batch_norm pad interpolate normalize embedding avg_pool2d max_pool2d adaptive_avg_pool2d "
    "leaky_relu elu mish hardswish scaled_dot_product_attention one_hot".split()
)
_TENSOR_CLASSES = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter", "torch.Tensor"})
_BUILTIN_RESULTS = {"builtins.int": "int", "builtins.float": "float", "builtins.bool": "bool", "builtins.str": "str",
                    "builtins.len": "int"}
_ANNOTATION_NAMES = {
    "torch.Tensor": "Tensor", "builtins.int": "int", "builtins.float": "float", "builtins.bool": "bool",
    "builtins.str": "str", "torch.nn.parameter.Parameter": "Tensor",
}
# Python's literal types, as TorchScript types them here (a bytes literal passes for a str; complex is unknown).
_LITERALS = {"int": "int", "float": "float", "bool": "bool", "str": "str", "bytes": "str", "None": "None"}
_OPTIONAL = frozenset({"typing.Optional"})
_FINAL = frozenset({"typing.Final", "typing_extensions.Final", "torch.jit.Final"})
_UNION = frozenset({"typing.Union"})
_LISTS = frozenset({"typing.List", "builtins.list"})


def annotation_type(node: cst.BaseExpression | None, imports: ImportTable) -> str | None:
    """The TorchScript type an annotation names, or None when it is not one of the types this pass follows."""
    if node is None:
        return None
    if isinstance(node, cst.Name) and node.value == "None":
        return "None"
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):  # PEP 604
        left, right = annotation_type(node.left, imports), annotation_type(node.right, imports)
        if right == "None" and left not in (None, "None"):
            return f"Optional[{left}]"
        if left == "None" and right not in (None, "None"):
            return f"Optional[{right}]"
        return None
    if isinstance(node, cst.Subscript):
        outer = imports.qualify(node.value)
        elements = [element.slice.value for element in node.slice if isinstance(element.slice, cst.Index)]
        inner = [annotation_type(element, imports) for element in elements]
        if outer in _FINAL and len(inner) == 1:
            return inner[0]
        if outer in _OPTIONAL and len(inner) == 1 and inner[0] not in (None, "None"):
            return f"Optional[{inner[0]}]"
        if outer in _UNION and len(inner) == 2 and "None" in inner and None not in inner:
            other = inner[0] if inner[1] == "None" else inner[1]
            return f"Optional[{other}]" if other != "None" else None
        if outer in _LISTS and len(inner) == 1 and inner[0] is not None:
            return f"List[{inner[0]}]"
        return None
    return _ANNOTATION_NAMES.get(imports.qualify(node) or "")


def param_types(function: cst.FunctionDef, imports: ImportTable, is_method: bool) -> dict[str, str | None]:
    params = function.params
    ordered = [*params.posonly_params, *params.params, *params.kwonly_params]
    if is_method and ordered:
        ordered = ordered[1:]
    types: dict[str, str | None] = {}
    for param in ordered:
        if param.annotation is not None:
            types[param.name.value] = annotation_type(param.annotation.annotation, imports)
        elif param.default is None:
            types[param.name.value] = "Tensor"
        elif isinstance(param.default, cst.Name) and param.default.value == "None":
            types[param.name.value] = "Optional[Tensor]"
        else:
            types[param.name.value] = None  # a literal default without annotation: JIT201's business
    return types


class Expressions:
    """Types of expressions given a mapping of local names (`env`) to types."""

    def __init__(self, imports: ImportTable, env: dict[str, str | None]) -> None:
        self.imports = imports
        self.env = env

    def of(self, node: cst.BaseExpression) -> str | None:
        literal = literal_type(node)
        if literal is not None:
            return _LITERALS.get(literal)
        if isinstance(node, (cst.ConcatenatedString, cst.FormattedString)):
            return "str"
        if isinstance(node, cst.Name):
            return self.env.get(node.value)
        if isinstance(node, cst.Call):
            return self._call(node)
        if isinstance(node, cst.List) and node.elements:
            kinds = {self.of(element.value) if isinstance(element, cst.Element) else None for element in node.elements}
            kind = kinds.pop() if len(kinds) == 1 else None
            return f"List[{kind}]" if kind in SCALARS and kind != "None" else None
        if isinstance(node, cst.Attribute):
            if node.attr.value in ("shape",) and self.of(node.value) == "Tensor":
                return "List[int]"
            if node.attr.value in ("T", "mT", "data") and self.of(node.value) == "Tensor":
                return "Tensor"
            return None
        if isinstance(node, cst.Subscript):
            base = self.of(node.value)
            if base == "Tensor":
                return "Tensor"
            if base is not None and base.startswith("List[") and len(node.slice) == 1 and isinstance(
                node.slice[0].slice, cst.Index
            ):
                return base[5:-1]
            return None
        if isinstance(node, cst.BinaryOperation):
            return self._binary(node)
        if isinstance(node, cst.UnaryOperation):
            operand = self.of(node.expression)
            if isinstance(node.operator, cst.Not):
                return "bool" if operand in ("int", "float", "bool", "str") else None
            return operand if operand in ("Tensor", "int", "float") else None
        if isinstance(node, cst.IfExp):
            body, orelse = self.of(node.body), self.of(node.orelse)
            return body if body == orelse else None
        if isinstance(node, cst.Comparison):
            operands = [self.of(node.left)] + [self.of(target.comparator) for target in node.comparisons]
            if any(isinstance(target.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for target in node.comparisons):
                return "bool"
            if "Tensor" in operands:
                return "Tensor"
            return "bool" if all(kind in ("int", "float", "bool", "str") for kind in operands) else None
        return None

    def _call(self, node: cst.Call) -> str | None:
        func = node.func
        qualified = self.imports.qualify(func)
        if qualified in _BUILTIN_RESULTS:
            return _BUILTIN_RESULTS[qualified]
        if qualified in TORCH_FUNCTIONS or qualified in _TENSOR_CLASSES:
            return "Tensor"
        if isinstance(func, cst.Attribute) and self.of(func.value) == "Tensor":
            method = func.attr.value
            if method in ("dim", "numel", "ndimension", "element_size", "nelement"):
                return "int"
            if method == "size":
                return "int" if node.args else "List[int]"
            if method == "item":
                return "number"
            if method == "tolist":
                return "tolist"
            if method in TENSOR_METHODS:
                return "Tensor"
        return None

    def _binary(self, node: cst.BinaryOperation) -> str | None:
        return binary_type(self.of(node.left), self.of(node.right), node.operator)


def binary_type(left: str | None, right: str | None, operator: cst.BaseBinaryOp) -> str | None:
    if isinstance(operator, cst.MatrixMultiply):
        return "Tensor" if left == right == "Tensor" else None
    if "Tensor" in (left, right):
        return "Tensor" if {left, right} <= {"Tensor", "int", "float", "bool"} else None
    if left == right == "str" and isinstance(operator, cst.Add):
        return "str"
    if left in ("int", "float") and right in ("int", "float"):
        if isinstance(operator, cst.Divide):
            return "float"
        return "float" if "float" in (left, right) else "int"
    return None


def assignment_fails(previous: str | None, new: str | None) -> bool:
    """Whether torch 2.13 rejects re-assigning, inside a branch or a loop, a variable of type `previous` with a value
    of type `new` ("Variable 's' previously had type int but is now being assigned to a value of type float").
    Verified pairwise on torch 2.13; int and float variables accept a Tensor or a bool (TorchScript converts)."""
    if previous not in SCALARS or new not in SCALARS or previous == new:
        return False
    return not (previous in ("int", "float") and new in ("Tensor", "bool"))


def join_fails(first: str | None, second: str | None) -> bool:
    """Whether two branches (of an if statement or an if-expression) with these types fail to unify: None joins
    anything into an Optional; otherwise the types must be equal (verified: int/float and Tensor/int fail)."""
    if first not in SCALARS or second not in SCALARS or first == second or "bool" in (first, second):
        return False  # bool against int or float is not verified: unknown, so silent
    return "None" not in (first, second)

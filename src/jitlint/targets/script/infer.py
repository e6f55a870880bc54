"""A small type inference over compiled functions that follows TorchScript's typing, not Python's.

Types are `TSType` values: `Tensor`, `int`, `float`, `bool`, `str`, `None`, `number` (what `.item()` returns),
`List[int]`, `Optional[Tensor]`, ...; `str()` spells them as the messages do. Python's `None` stands for unknown,
a type of its own: a rule that needs a type says nothing when it gets None. What is known:

- parameters: their annotation (`typing`, PEP 585, PEP 604); unannotated ones are Tensor, or Optional[Tensor]
  with a `None` default;
- literals; `int()`, `float()`, `bool()`, `str()`, `len()`;
- Tensor methods (`TENSOR_METHODS`) and torch/functional calls (`TORCH_FUNCTIONS`); `.size(i)`, `.dim()`,
  `.numel()` are int, `.size()`/`.shape` List[int], `.item()` a number, `.tolist()` a list TorchScript cannot type
  without a hint;
- arithmetic (a Tensor operand makes a Tensor; `/` of two ints is a float), comparisons, ternaries of one type;
- local variables, through the environment the control-flow typing (`jitlint.targets.script.typeflow`) maintains
  as it walks a function.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, TypeVar

import libcst as cst

from jitlint.literals import literal_type
from jitlint.names import ImportTable


@dataclass(frozen=True)
class TSType:
    """A TorchScript type: a constructor name and its type arguments (`List[int]` is `TSType("List", (INT,))`).
    `number` and `tolist` are pseudo-types: what `.item()` and `.tolist()` return before an annotation says more."""

    name: str
    args: tuple["TSType", ...] = ()

    def __str__(self) -> str:
        return f"{self.name}[{', '.join('Any' if arg is None else str(arg) for arg in self.args)}]" if self.args else self.name

    def __repr__(self) -> str:
        return f"TSType({str(self)!r})"

    @property
    def is_optional(self) -> bool:
        return self.name == "Optional" and len(self.args) == 1

    @property
    def inner(self) -> "TSType":
        """T, of an Optional[T]."""
        if not self.is_optional:
            raise ValueError(f"{self} is not an Optional")
        return self.args[0]

    @property
    def is_list(self) -> bool:
        return self.name == "List" and len(self.args) == 1

    @property
    def is_tuple(self) -> bool:
        """A tuple of known length; an element jitlint cannot type is None in `args`. (`TSType("Tuple")`, without
        elements, is the outer type `isinstance` folding reads, not an empty tuple.)"""
        return self.name == "Tuple" and bool(self.args)

    @property
    def is_dict(self) -> bool:
        return self.name == "Dict" and len(self.args) == 2

    @property
    def fully_known(self) -> bool:
        """No part of the type is unknown (a tuple's elements, recursively)."""
        return all(arg is not None and arg.fully_known for arg in self.args)

    @property
    def element(self) -> "TSType":
        """T, of a List[T]."""
        if not self.is_list:
            raise ValueError(f"{self} is not a List")
        return self.args[0]


def optional_of(inner: TSType) -> TSType:
    return TSType("Optional", (inner,))


def list_of(element: TSType) -> TSType:
    return TSType("List", (element,))


def tuple_of(elements) -> TSType:
    """A tuple of these element types (None for an element of unknown type)."""
    return TSType("Tuple", tuple(elements))


def dict_of(key: TSType, value: TSType) -> TSType:
    return TSType("Dict", (key, value))


TENSOR = TSType("Tensor")
INT = TSType("int")
FLOAT = TSType("float")
BOOL = TSType("bool")
STR = TSType("str")
NONE = TSType("None")
NUMBER = TSType("number")  # `.item()`: an int or a float, by the tensor's dtype
TOLIST = TSType("tolist")  # `.tolist()`: a nested list TorchScript cannot type without an annotation
SCALARS = frozenset({TENSOR, INT, FLOAT, BOOL, STR, NONE})
NUMBERS = (INT, FLOAT)


@dataclass(frozen=True)
class TensorMethod:
    """What jitlint knows about one Tensor method, and which of its typers rely on it."""

    returns: TSType  # on a Tensor receiver
    # What a call without arguments returns, when that differs (`x.size()` is a List[int], `x.size(0)` an int).
    returns_bare: TSType | None = None
    # The flow typing (`Expressions`) follows it: `x.m()` has type `returns` when `x` is a Tensor.
    typed: bool = True
    # Its name alone shows a Tensor receiver (no other value TorchScript knows has the method), for the typers
    # that do not know the receiver's type: `tensor_evident` (JIT101) and the element types of JIT602's fix.
    evident: bool = False
    # Its Tensor arguments cannot be None: an Optional passed to it must be refined first (JIT704, JIT611).
    tensor_arguments: bool = False

    def result(self, call: cst.Call) -> TSType:
        return self.returns_bare if self.returns_bare is not None and not call.args else self.returns


def _methods(names: str, returns: TSType, **facts: bool) -> dict[str, TensorMethod]:
    return {name: TensorMethod(returns, **facts) for name in names.split()}


# The one table of Tensor methods. The flags reproduce what each typer always did; where they disagree about a
# method whose facts are the same, that is history, not design (adding a method to a typer changes its findings):
# - typed but not evident: bool byte flip index_select masked_select narrow new_* reciprocal reshape_as roll
#   type_as where (each only a Tensor has), and element_size;
# - evident but not typed: amax amin cpu cuda prod std var (Tensors too), and max/min, which return a tuple when
#   given a `dim` (so the flow typing leaves them unknown on purpose, and `tensor_evident` is wrong about them).
TENSOR_METHODS: dict[str, TensorMethod] = {
    **_methods(
        "abs addmm ceil clamp clamp_min clamp_max clone contiguous cos cumsum detach exp expand flatten float "
        "floor gather half int long log mean neg norm permute pow relu repeat reshape round rsqrt sigmoid "
        "sign sin softmax sqrt square squeeze sum t tanh to transpose tril triu unsqueeze view argmax argmin "
        "log_softmax double",
        TENSOR, evident=True,
    ),
    **_methods("add sub mul div matmul mm bmm masked_fill expand_as view_as", TENSOR, evident=True, tensor_arguments=True),
    **_methods(
        "bool byte flip index_select masked_select narrow new_empty new_full new_ones new_zeros reciprocal roll "
        "where",
        TENSOR,
    ),
    **_methods("reshape_as type_as", TENSOR, tensor_arguments=True),
    **_methods("amax amin cpu cuda max min prod std var", TENSOR, typed=False, evident=True),
    # In place: they return their receiver; only JIT704's argument check uses them.
    **_methods("masked_fill_ add_ sub_ mul_ div_", TENSOR, typed=False, tensor_arguments=True),
    **_methods("dim numel ndimension nelement", INT, evident=True),
    "element_size": TensorMethod(INT),
    "size": TensorMethod(INT, returns_bare=list_of(INT), evident=True),
    "item": TensorMethod(NUMBER),
    "tolist": TensorMethod(TOLIST),
}
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
_BUILTIN_RESULTS = {"builtins.int": INT, "builtins.float": FLOAT, "builtins.bool": BOOL, "builtins.str": STR,
                    "builtins.len": INT}
_ANNOTATION_NAMES = {
    "torch.Tensor": TENSOR, "builtins.int": INT, "builtins.float": FLOAT, "builtins.bool": BOOL,
    "builtins.str": STR, "torch.nn.parameter.Parameter": TENSOR,
}
# Python's literal types, as TorchScript types them here (a bytes literal passes for a str; complex is unknown).
_LITERALS = {"int": INT, "float": FLOAT, "bool": BOOL, "str": STR, "bytes": STR, "None": NONE}
_OPTIONAL = frozenset({"typing.Optional"})
_FINAL = frozenset({"typing.Final", "typing_extensions.Final", "torch.jit.Final"})
_UNION = frozenset({"typing.Union"})
_LISTS = frozenset({"typing.List", "builtins.list"})
_TUPLES = frozenset({"typing.Tuple", "builtins.tuple"})
_DICTS = frozenset({"typing.Dict", "builtins.dict"})


def annotation_type(node: cst.BaseExpression | None, imports: ImportTable) -> TSType | None:
    """The TorchScript type an annotation names, or None when it is not one of the types this pass follows."""
    if node is None:
        return None
    if isinstance(node, cst.Name) and node.value == "None":
        return NONE
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):  # PEP 604
        left, right = annotation_type(node.left, imports), annotation_type(node.right, imports)
        if right == NONE and left not in (None, NONE):
            return optional_of(left)
        if left == NONE and right not in (None, NONE):
            return optional_of(right)
        return None
    if isinstance(node, cst.Subscript):
        outer = imports.qualify(node.value)
        elements = [element.slice.value for element in node.slice if isinstance(element.slice, cst.Index)]
        inner = [annotation_type(element, imports) for element in elements]
        if outer in _FINAL and len(inner) == 1:
            return inner[0]
        if outer in _OPTIONAL and len(inner) == 1 and inner[0] not in (None, NONE):
            return optional_of(inner[0])
        if outer in _UNION and len(inner) == 2 and NONE in inner and None not in inner:
            other = inner[0] if inner[1] == NONE else inner[1]
            return optional_of(other) if other != NONE else None
        if outer in _LISTS and len(inner) == 1 and inner[0] is not None:
            return list_of(inner[0])
        if outer in _TUPLES:
            if not inner or any(isinstance(element, cst.Ellipsis) for element in elements) or len(elements) != len(node.slice):
                return None
            return tuple_of(inner)
        if outer in _DICTS and len(inner) == 2 and None not in inner:
            return dict_of(inner[0], inner[1])
        return None
    return _ANNOTATION_NAMES.get(imports.qualify(node) or "")


T = TypeVar("T")
OPTIONAL_TENSOR = optional_of(TENSOR)


@dataclass(frozen=True)
class SignatureComment:
    """A `# type: (int, Tensor) -> Tensor` signature, read the way `torch.jit.annotations.get_type_line` and
    `parse_type_line` read it: TorchScript uses it when the function has no annotation at all. `params` holds the
    parameter types (None when the text does not parse), `error` torch's complaint when it rejects the comment."""

    params: tuple[cst.BaseExpression, ...] | None
    returns: cst.BaseExpression | None
    error: str | None = None


def has_annotations(function: cst.FunctionDef) -> bool:
    params = function.params
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            every.append(star)
    return function.returns is not None or any(param.annotation is not None for param in every)


def _type_comment_lines(function: cst.FunctionDef) -> tuple[list[str], bool]:
    """The `# type:` comments of a signature, in source order (parameter comments, then the lines under the
    `def`), less `# type: ignore`; and whether one sits on the `def` line itself (torch then slices the whole
    line, code included, and cannot parse it)."""
    comments: list[cst.Comment] = []
    params = function.params
    for param in [*params.posonly_params, *params.params, *params.kwonly_params]:
        for whitespace in (param.whitespace_after_param, getattr(param.comma, "whitespace_after", None)):
            if isinstance(whitespace, cst.ParenthesizedWhitespace) and whitespace.first_line.comment is not None:
                comments.append(whitespace.first_line.comment)
    on_def_line = False
    body = function.body
    if isinstance(body, cst.IndentedBlock):
        if body.header.comment is not None and "# type:" in body.header.comment.value:
            on_def_line = not _IGNORE.search(body.header.comment.value)
        if body.body:
            comments.extend(line.comment for line in getattr(body.body[0], "leading_lines", ()) if line.comment)
    lines = [comment.value.strip() for comment in comments if "# type:" in comment.value]
    return [line for line in lines if not _IGNORE.search(line)], on_def_line


_IGNORE = re.compile(r"# type:\ ignore(\[[a-zA-Z-]+\])?$")


@lru_cache(maxsize=4096)
def signature_comment(function: cst.FunctionDef) -> SignatureComment | None:
    """The function's `# type:` signature comment, when TorchScript reads one (no annotation anywhere), else None."""
    if has_annotations(function):
        return None
    lines, on_def_line = _type_comment_lines(function)
    if on_def_line:
        return SignatureComment(None, None)
    if not lines:
        return None
    if len(lines) == 1:
        line = lines[0]
    else:
        returns = next((i for i, text in enumerate(lines) if "# type: (...) -> " in text), None)
        if returns is None:
            return SignatureComment(None, None, "Return type line '# type: (...) -> ...' not found on multiline type "
                                                "annotation")
        parameters = ", ".join(text[text.find("# type:") + 7:].strip() for text in lines[:returns])
        line = lines[returns].replace("...", parameters)
    start = line.find("# type:") + 7
    arrow = line.find("->")  # `# type: (int)` without a return type scripts too (the return type is inferred)
    try:
        arguments = cst.parse_expression(line[start:arrow if arrow >= 0 else len(line)].strip())
        returned = cst.parse_expression(line[arrow + 2:].strip()) if arrow >= 0 else None
    except cst.ParserSyntaxError:
        return SignatureComment(None, None)
    if isinstance(arguments, cst.Tuple):
        if any(not isinstance(element, cst.Element) for element in arguments.elements):
            return SignatureComment(None, returned)
        types = tuple(element.value for element in arguments.elements)
    else:
        types = (arguments,)
    return SignatureComment(types, returned)


def is_overload_implementation(function: cst.FunctionDef, tree: cst.Module) -> bool:
    """Whether `function` implements `@torch.jit._overload` declarations (an earlier function or method of the same
    name in the same body): TorchScript compiles it once per declared signature, not with its own."""
    return id(function) in _overload_implementations(tree)


@dataclass(frozen=True)
class OverloadGroup:
    """`@torch.jit._overload` (or `_overload_method`) declarations of one name in one body, and the function
    defined after them that implements them (None when there is none)."""

    declarations: tuple[cst.FunctionDef, ...]
    implementation: cst.FunctionDef | None


def overload_group(function: cst.FunctionDef, tree: cst.Module) -> OverloadGroup | None:
    """The overload group `function` declares or implements, if any."""
    return _overload_groups(tree).get(id(function))


def _overload_implementations(tree: cst.Module) -> frozenset[int]:
    return frozenset(id(group.implementation) for group in _overload_groups(tree).values() if group.implementation)


@lru_cache(maxsize=64)
def _overload_groups(tree: cst.Module) -> dict[int, OverloadGroup]:
    groups: dict[int, OverloadGroup] = {}
    bodies = [tree.body]
    bodies.extend(statement.body.body for statement in tree.body if isinstance(statement, cst.ClassDef)
                  and isinstance(statement.body, cst.IndentedBlock))
    for body in bodies:
        declared: dict[str, list[cst.FunctionDef]] = {}
        for statement in body:
            if not isinstance(statement, cst.FunctionDef):
                continue
            names = {_dotted(decorator.decorator) for decorator in statement.decorators}
            name = statement.name.value
            if any(n is not None and n.rsplit(".", 1)[-1] in ("_overload", "_overload_method") for n in names):
                declared.setdefault(name, []).append(statement)
            elif name in declared:
                group = OverloadGroup(tuple(declared.pop(name)), statement)
                groups.update((id(member), group) for member in (*group.declarations, statement))
        for declarations in declared.values():
            group = OverloadGroup(tuple(declarations), None)
            groups.update((id(member), group) for member in declarations)
    return groups


def _dotted(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr.value}" if head else None
    return None


def comment_count_mismatch(function: cst.FunctionDef, is_method: bool) -> str | None:
    """torch's error when a signature comment gives another number of types than the function has parameters
    (less `self`, for a method)."""
    comment = signature_comment(function)
    if comment is None:
        return None
    if comment.error is not None:
        return comment.error
    params = function.params
    if comment.params is None or params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or params.star_kwarg:
        return None
    count = len([*params.posonly_params, *params.params, *params.kwonly_params]) - int(is_method)
    if len(comment.params) != count:
        kind = "method" if is_method else "function"
        return (f"Number of type annotations ({len(comment.params)}) did not match the number of {kind} "
                f"parameters ({count})")
    return None


def param_types(
    function: cst.FunctionDef,
    imports: ImportTable,
    is_method: bool,
    annotation: Callable[[cst.BaseExpression, ImportTable], T | None] = annotation_type,
) -> dict[str, T | TSType | None]:
    """The type TorchScript gives each parameter (less the first, of a method): an unannotated one is a Tensor, or
    an Optional[Tensor] with a `None` default (unknown with another default: JIT201's business); an annotated one
    is what `annotation` reads in its annotation (by default its full type; `isinstance` folding reads only the
    outer constructor)."""
    params = function.params
    ordered = [*params.posonly_params, *params.params, *params.kwonly_params]
    if is_method and ordered:
        ordered = ordered[1:]
    types: dict[str, T | TSType | None] = {}
    comment = signature_comment(function)
    if comment is not None:  # TorchScript reads the signature from the comment
        given = comment.params
        if given is None or len(given) != len(ordered):
            return {param.name.value: None for param in ordered}
        # A type comment is evaluated where `Tensor` always names torch.Tensor, imported or not.
        return {
            param.name.value: TENSOR if isinstance(kind, cst.Name) and kind.value == "Tensor"
            and imports.qualify(kind) is None and annotation is annotation_type else annotation(kind, imports)
            for param, kind in zip(ordered, given)
        }
    for param in ordered:
        if param.annotation is not None:
            types[param.name.value] = annotation(param.annotation.annotation, imports)
        elif param.default is None:
            types[param.name.value] = TENSOR
        elif isinstance(param.default, cst.Name) and param.default.value == "None":
            types[param.name.value] = OPTIONAL_TENSOR
        else:
            types[param.name.value] = None  # a literal default without annotation: JIT201's business
    return types


class Expressions:
    """Types of expressions given a mapping of local names (`env`) to types."""

    def __init__(self, imports: ImportTable, env: dict[str, TSType | None]) -> None:
        self.imports = imports
        self.env = env

    def of(self, node: cst.BaseExpression) -> TSType | None:
        literal = literal_type(node)
        if literal is not None:
            return _LITERALS.get(literal)
        if isinstance(node, (cst.ConcatenatedString, cst.FormattedString)):
            return STR
        if isinstance(node, cst.Name):
            return self.env.get(node.value)
        if isinstance(node, cst.Call):
            return self._call(node)
        if isinstance(node, cst.List) and node.elements:
            kinds = {self.of(element.value) if isinstance(element, cst.Element) else None for element in node.elements}
            kind = kinds.pop() if len(kinds) == 1 else None
            if kind is not None and kind.is_list and kind.fully_known:
                return list_of(kind)  # `[[1, 2]]`: List[List[int]]
            return list_of(kind) if kind in SCALARS else None  # `[None]`: List[NoneType]
        if isinstance(node, cst.Attribute):
            if node.attr.value in ("shape",) and self.of(node.value) == TENSOR:
                return list_of(INT)
            if node.attr.value in ("T", "mT", "data") and self.of(node.value) == TENSOR:
                return TENSOR
            return None
        if isinstance(node, cst.Tuple):
            if not node.elements or not all(isinstance(element, cst.Element) for element in node.elements):
                return None  # (`()`: TSType("Tuple") alone is the outer type `isinstance` folding reads)
            return tuple_of(self.of(element.value) for element in node.elements)
        if isinstance(node, cst.Subscript):
            base = self.of(node.value)
            if base == TENSOR:
                return TENSOR
            if base is not None and base.is_tuple:
                index = tuple_index(node)
                if isinstance(index, int) and -len(base.args) <= index < len(base.args):
                    return base.args[index]
                return None
            if base is not None and base.is_list and len(node.slice) == 1 and isinstance(
                node.slice[0].slice, cst.Index
            ):
                return base.element
            if base is not None and base.is_list and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Slice):
                return base  # `xs[1:]`, `xs[::-1]`: a list of the same type
            return None
        if isinstance(node, cst.BinaryOperation):
            return self._binary(node)
        if isinstance(node, cst.UnaryOperation):
            operand = self.of(node.expression)
            if isinstance(node.operator, cst.Not):
                return BOOL if operand in (INT, FLOAT, BOOL, STR) else None
            return operand if operand in (TENSOR, INT, FLOAT) else None
        if isinstance(node, cst.IfExp):
            body, orelse = self.of(node.body), self.of(node.orelse)
            return body if body == orelse else None
        if isinstance(node, cst.Comparison):
            operands = [self.of(node.left)] + [self.of(target.comparator) for target in node.comparisons]
            if any(isinstance(target.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for target in node.comparisons):
                return BOOL
            if TENSOR in operands:
                return TENSOR
            return BOOL if all(kind in (INT, FLOAT, BOOL, STR) for kind in operands) else None
        return None

    def _call(self, node: cst.Call) -> TSType | None:
        func = node.func
        qualified = self.imports.qualify(func)
        if qualified in _BUILTIN_RESULTS:
            return _BUILTIN_RESULTS[qualified]
        if qualified in TORCH_FUNCTIONS or qualified in _TENSOR_CLASSES:
            if qualified == "torch.where" and len(node.args) == 1:
                return None  # `torch.where(condition)`: a list of Tensors
            if any(arg.keyword is not None and arg.keyword.value == "return_indices" for arg in node.args):
                return None  # `F.max_pool2d(..., return_indices=True)`: a tuple
            return TENSOR
        if qualified == "torch.jit.annotate" and len(node.args) == 2 and not any(a.keyword or a.star for a in node.args):
            return annotation_type(node.args[0].value, self.imports)
        if isinstance(func, cst.Attribute) and self.of(func.value) == TENSOR:
            method = TENSOR_METHODS.get(func.attr.value)
            if method is not None and method.typed:
                return method.result(node)
        return None

    def _binary(self, node: cst.BinaryOperation) -> TSType | None:
        return binary_type(self.of(node.left), self.of(node.right), node.operator)


def int_literal(node: cst.BaseExpression) -> int | None:
    """The value of an int literal, signed or not (`2`, `-1`); None for anything else (`True` is no int here)."""
    sign = 1
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        sign = -1 if isinstance(node.operator, cst.Minus) else 1
        node = node.expression
    if isinstance(node, cst.Integer):
        try:
            return sign * int(node.value.replace("_", ""), 0)
        except ValueError:
            return None
    return None


def tuple_index(node: cst.Subscript) -> int | cst.BaseExpression | None:
    """A one-element index's int literal, or its expression (None for a slice or several elements)."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    value = node.slice[0].slice.value
    literal = int_literal(value)
    return literal if literal is not None else value


def binary_type(left: TSType | None, right: TSType | None, operator: cst.BaseBinaryOp) -> TSType | None:
    if isinstance(operator, cst.MatrixMultiply):
        return TENSOR if left == right == TENSOR else None
    if TENSOR in (left, right):
        return TENSOR if {left, right} <= {TENSOR, INT, FLOAT, BOOL} else None
    if left == right == STR and isinstance(operator, cst.Add):
        return STR
    if left in NUMBERS and right in NUMBERS:
        if isinstance(operator, (cst.Divide, cst.Power)):  # `aten::pow.int(int a, int b) -> float`
            return FLOAT
        return FLOAT if FLOAT in (left, right) else INT
    return None


def assignment_fails(previous: TSType | None, new: TSType | None) -> bool:
    """Whether torch 2.13 rejects re-assigning, inside a branch or a loop, a variable of type `previous` with a value
    of type `new` ("Variable 's' previously had type int but is now being assigned to a value of type float").
    Verified pairwise on torch 2.13; int and float variables accept a Tensor or a bool (TorchScript converts)."""
    if previous not in SCALARS or new not in SCALARS or previous == new:
        return False
    return not (previous in NUMBERS and new in (TENSOR, BOOL))


def join_fails(first: TSType | None, second: TSType | None) -> bool:
    """Whether two branches (of an if statement or an if-expression) with these types fail to unify: None joins
    anything into an Optional; otherwise the types must be equal (verified: int/float and Tensor/int fail; a tuple
    and a list never unify, whatever their elements: "Tuple[int, int] in the true branch and type List[int]")."""
    if first is not None and second is not None and (
            (first.is_tuple and second.is_list) or (first.is_list and second.is_tuple)):
        return True
    if (first is not None and second is not None and first.is_list and second.is_list and first.fully_known
            and second.fully_known):
        return first != second  # lists are invariant: List[int] and List[float] (or List[NoneType]) do not unify
    if first not in SCALARS or second not in SCALARS or first == second or BOOL in (first, second):
        return False  # bool against int or float is not verified: unknown, so silent
    return NONE not in (first, second)


# What a value of each type may be returned as, or passed as an argument, with the frontend's implicit conversions
# (verified on torch 2.13: a Tensor returned as an int scripts, an int returned as a float does not).
_CONVERTS_TO: dict[TSType, frozenset[TSType]] = {
    TENSOR: frozenset({TENSOR, INT, FLOAT}),
    INT: frozenset({INT}),
    FLOAT: frozenset({FLOAT}),
    BOOL: frozenset({BOOL, INT, FLOAT}),
    STR: frozenset({STR}),
}


def mismatches(value: TSType | None, wanted: TSType | None, convert: bool) -> bool:
    """Whether a value of type `value` certainly cannot be bound to `wanted`: assigned to a variable annotated so
    (`convert` False: the types must agree, an Optional takes its element type or None, a tuple's elements each
    agree) or returned from a function annotated so (`convert` True: also the implicit conversions of
    `_CONVERTS_TO`). Lists and dicts are invariant. False whenever a part of either type is unknown."""
    if value is None or wanted is None or value == wanted:
        return False
    if value in (NUMBER, TOLIST) or wanted in (NUMBER, TOLIST):
        return False
    if wanted.is_optional:
        if value == NONE:
            return False
        if value.is_optional:
            return mismatches(value.inner, wanted.inner, convert)
        return mismatches(value, wanted.inner, convert)
    if value.is_optional:
        return False  # refinement is JIT704's business
    if value.is_tuple and wanted.is_tuple:
        if len(value.args) != len(wanted.args):
            return True
        return any(mismatches(one, other, convert) for one, other in zip(value.args, wanted.args))
    if not (_known_shape(value) and _known_shape(wanted)):
        return False
    if value.is_tuple or wanted.is_tuple:
        return True  # a tuple for a non-tuple, or the converse
    if value in _CONVERTS_TO and wanted in _CONVERTS_TO:
        return wanted not in (_CONVERTS_TO[value] if convert else {value})
    if value == NONE:
        return wanted in _CONVERTS_TO or wanted.is_list or wanted.is_dict
    if (value.is_list or value.is_dict) and (wanted.is_list or wanted.is_dict or wanted in _CONVERTS_TO):
        return value.fully_known and wanted.fully_known  # invariant: List[int] is no List[Optional[int]]
    if (wanted.is_list or wanted.is_dict) and value in _CONVERTS_TO:
        return True
    return False


def _known_shape(kind: TSType) -> bool:
    """The outer constructor is one this model knows (not a class, a Union, a Device, ...)."""
    return kind in _CONVERTS_TO or kind == NONE or kind.is_list or kind.is_dict or kind.is_tuple

"""Annotations as TorchScript reads them: a written type to a `Type`, and a compiled function's signature.

The specification is `torch/jit/annotations.py` (`try_ann_to_type`, what a signature's Python annotations become),
`script_type_parser.cpp` (what an annotation written in compiled code becomes: `x: List[int] = []`,
`torch.jit.annotate(T, v)`) and `get_signature`/`parse_type_line` (a `# type: (int) -> Tensor` comment, read when
the function has no annotation at all). What they share:

- `torch.Tensor` (and its subclasses and `nn.Parameter`), `int` (and `torch.SymInt`), `float`, `complex`, `bool`,
  `str`, `None`, `Any`, `torch.device` (Device), `torch.dtype` and `torch.qscheme` (ints), `torch.Generator`,
  `torch.Stream`;
- `List[T]`/`list[T]`, `Tuple[...]`/`tuple[...]` (`Tuple[()]` is the empty tuple), `Dict[K, V]`/`dict[K, V]`,
  `Optional[T]`, `Union[...]` and `A | B` (`Union[int, float, complex]` is `number`), `Final[T]` (a class
  attribute's T), string annotations (forward references);
- classes: a `NamedTuple` is a named Tuple of its fields, an `Enum` an Enum of its values' type, a class decorated
  `@torch.jit.interface` an interface (a module interface when it derives from nn.Module), an nn.Module class a
  module type, any other class of the project a TorchScript class;
- a module-level alias (`OptTensor = Optional[Tensor]`) is read as what it names, in its own file.

What this reader cannot resolve (a class of another library, an expression) is None: unknown. Annotations torch
rejects outright (`Callable`, `Sequence`, `Tuple[T, ...]`) are JIT203's, read from the source there; here they are
unknown too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import libcst as cst

from jitlint.facts import RunFact, run_fact
from jitlint.facts.signature import SignatureComment, signature_comment  # noqa: F401  (script reads them from here)
from jitlint.names import ImportTable
from jitlint.targets.script.typing.types import (
    ANY, ANY_LIST, ANY_TUPLE, BOOL, COMPLEX, DEVICE, FLOAT, GENERATOR, INT, NONE, NUMBER, STR, STREAM, TENSOR, Type, dict_of, future_of,
    list_of, nominal, optional_of, tuple_of, union_of,
)

if TYPE_CHECKING:
    from jitlint.project import ClassInfo, ProjectIndex

_NAMED = {
    "torch.Tensor": TENSOR, "torch.FloatTensor": TENSOR, "torch.LongTensor": TENSOR, "torch.DoubleTensor": TENSOR,
    "torch.HalfTensor": TENSOR, "torch.BoolTensor": TENSOR, "torch.IntTensor": TENSOR, "torch.ByteTensor": TENSOR,
    "torch.cuda.FloatTensor": TENSOR, "torch.nn.Parameter": TENSOR, "torch.nn.parameter.Parameter": TENSOR,
    "builtins.int": INT, "torch.SymInt": INT, "builtins.float": FLOAT, "builtins.complex": COMPLEX,
    "builtins.bool": BOOL, "builtins.str": STR, "typing.Any": ANY, "typing_extensions.Any": ANY,
    "torch.device": DEVICE, "torch.dtype": INT, "torch.qscheme": INT, "torch.layout": INT,
    "torch.memory_format": INT, "torch.Generator": GENERATOR, "torch.Stream": STREAM, "builtins.NoneType": NONE,
    "types.NoneType": NONE,
    # bare `tuple` and `list`: `try_ann_to_type` makes them `AnyTupleType` and `AnyListType` (printed `tuple`, `list`),
    # which torch passes, returns and measures with `len()` but cannot unpack, index, iterate or append to
    "builtins.tuple": ANY_TUPLE, "builtins.list": ANY_LIST,
}
# Names a `# type:` comment and a string annotation resolve without an import (torch evaluates them with `torch`
# and the names of `typing` in scope).
_IMPLICIT = {"Tensor": TENSOR, "List": "typing.List", "Dict": "typing.Dict", "Tuple": "typing.Tuple",
             "Optional": "typing.Optional", "Union": "typing.Union", "Any": ANY}
# Modules of torch that re-export `typing`'s names.
_TYPING_REEXPORTS = ("torch.jit.annotations.", "torch._jit_internal.", "typing_extensions.")
_LISTS = frozenset({"typing.List", "builtins.list"})
_TUPLES = frozenset({"typing.Tuple", "builtins.tuple"})
_DICTS = frozenset({"typing.Dict", "builtins.dict"})
_OPTIONAL = frozenset({"typing.Optional", "typing_extensions.Optional"})
_UNION = frozenset({"typing.Union", "typing_extensions.Union"})
_FINAL = frozenset({"typing.Final", "typing_extensions.Final", "torch.jit.Final"})
# `try_ann_to_type` resolves the element types of these constructors itself, and a bare `tuple` or `list` there is
# no type to it (it is one only at the top of an annotation, or as a member of `A | B`, which torch reads whole):
# `Optional[tuple]` and `Union[T, list]` fail with "could not be resolved", `Tuple[int, tuple]` with "Can not create
# tuple with None type", `Dict[str, list]` with "Unknown type annotation". A `List[tuple]` that is the whole
# annotation is read whole, like `A | B`; inside another constructor it is not resolved either.
_NO_BARE_ELEMENTS = frozenset({"typing.Tuple", "builtins.tuple", "typing.Optional", "typing_extensions.Optional",
                               "typing.Union", "typing_extensions.Union", "typing.Dict", "builtins.dict"})
_BARE = frozenset({"builtins.tuple", "builtins.list"})
_FUTURE = frozenset({"torch.jit.Future", "torch.futures.Future", "torch._C.Future"})
_BROADCASTING = re.compile(r"torch\._jit_internal\.BroadcastingList[123]|torch\.nn\.modules\.utils\._(single|pair|triple)")
_ENUM_BASES = frozenset({"enum.Enum", "enum.IntEnum", "enum.StrEnum"})
_NAMEDTUPLE_BASES = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})
_INTERFACE = frozenset({"torch.jit.interface", "torch.jit._script.interface"})
_MODULE_BASES = ("torch.nn.Module", "torch.nn.modules.module.Module")


class Reader:
    """Reads annotations written in one file (`imports`), resolving project classes and module-level aliases
    through `project` (None: only torch's and Python's own names)."""

    def __init__(self, imports: ImportTable, project: "ProjectIndex | None" = None, implicit: bool = False) -> None:
        self.imports = imports
        self.project = project
        self.implicit = implicit  # a type comment or a string: `Tensor`, `List`, ... resolve without imports

    def read(self, node: cst.BaseExpression | None, depth: int = 0) -> Type | None:
        """The type an annotation names, None when unknown."""
        if node is None or depth > 12:
            return None
        if isinstance(node, cst.Name) and node.value == "None":
            return NONE
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            text = node.evaluated_value if isinstance(node, cst.SimpleString) else None
            if not isinstance(text, str):
                return None
            try:
                parsed = cst.parse_expression(text)
            except cst.ParserSyntaxError:
                return None
            return Reader(self.imports, self.project, implicit=True).read(parsed, depth + 1)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.BitOr):
            return union_of([self.read(node.left, depth + 1), self.read(node.right, depth + 1)])
        if isinstance(node, cst.Subscript):
            return self._subscript(node, depth)
        qualified = self._qualify(node)
        if isinstance(qualified, Type):
            return qualified
        if qualified is None:
            return None
        if qualified in _NAMED:
            return _NAMED[qualified]
        return self._named(qualified, depth)

    def _qualify(self, node: cst.BaseExpression) -> str | Type | None:
        qualified = self.imports.qualify(node)
        if qualified is None and self.implicit and isinstance(node, cst.Name):
            return _IMPLICIT.get(node.value)
        if qualified is not None and qualified.startswith(_TYPING_REEXPORTS):
            return "typing." + qualified.rsplit(".", 1)[-1]  # `from torch.jit.annotations import Any`
        return qualified

    def _subscript(self, node: cst.Subscript, depth: int) -> Type | None:
        outer = self._qualify(node.value)
        if not isinstance(outer, str):
            return None
        elements = [element.slice.value for element in node.slice if isinstance(element.slice, cst.Index)]
        if len(elements) != len(node.slice):
            return None
        if outer in _TUPLES and len(elements) == 1 and isinstance(elements[0], cst.Tuple) and not elements[0].elements:
            return tuple_of(())  # `Tuple[()]`
        if outer in _TUPLES and any(isinstance(element, cst.Ellipsis) for element in elements):
            return None  # `Tuple[T, ...]`: JIT203
        if (outer in _NO_BARE_ELEMENTS or (outer in _LISTS and depth > 0)) and any(
                self._qualify(element) in _BARE for element in elements):
            return None  # `Optional[tuple]`, `Tuple[int, list]`: torch cannot resolve them (JIT203)
        inner = [self.read(element, depth + 1) for element in elements]
        if outer in _FINAL and len(inner) == 1:
            return inner[0]
        if outer in _LISTS and len(inner) == 1:
            return list_of(inner[0])
        if outer in _TUPLES:
            return tuple_of(inner)
        if outer in _DICTS and len(inner) == 2:
            return dict_of(inner[0], inner[1])
        if outer in _OPTIONAL and len(inner) == 1:
            return optional_of(inner[0]) if inner[0] is not None else None
        if outer in _UNION:
            if len(inner) == 3 and set(inner) == {INT, FLOAT, COMPLEX}:
                return NUMBER
            return union_of(inner)
        if outer in _FUTURE and len(inner) == 1:
            return future_of(inner[0])
        if _BROADCASTING.fullmatch(outer) and len(inner) == 1:
            return list_of(inner[0])  # `BroadcastingList2[int]`: a List[int] that also takes one int
        return None

    def _named(self, qualified: str, depth: int) -> Type | None:
        """A name that is no builtin type: a project class, or a module-level alias of a type."""
        if self.project is None:
            return None
        found = self.project.resolve(qualified)
        if found is None:
            return self._alias(qualified, depth)
        from jitlint.project import ClassInfo

        if isinstance(found, ClassInfo):
            return class_type(found, self.project)
        return None

    def _alias(self, qualified: str, depth: int) -> Type | None:
        """`OptTensor = Optional[Tensor]` at module level (in this file or the one it is imported from)."""
        module_name, _, attribute = qualified.rpartition(".")
        module = self.project.module(module_name) if module_name else None
        if module is None:
            return None
        value = module.globals.get(attribute)
        if value is None:
            target = module.imports.aliases.get(attribute)
            if target is not None and target != qualified and depth < 8:
                return self._named(target, depth + 1)
            return None
        if isinstance(value, cst.Call):
            return _namedtuple_call(qualified, value, module.imports, self.project)
        if not isinstance(value, (cst.Subscript, cst.BinaryOperation, cst.Name, cst.Attribute)):
            return None
        return Reader(module.imports, self.project).read(value, depth + 1)


def is_type_variable(qualified: str | None, project: "ProjectIndex | None", depth: int = 0) -> bool:
    """Whether a name is a module-level `T = TypeVar("T", ...)` of the project (followed through imports): torch's
    resolver finds the TypeVar object, of which `try_ann_to_type` makes no type ("Unknown type name 'T'")."""
    module_name, _, attribute = (qualified or "").rpartition(".")
    module = project.module(module_name) if project is not None and module_name and depth < 8 else None
    if module is None or attribute in module.classes or attribute in module.functions:
        return False
    value = module.globals.get(attribute)
    if value is None:
        target = module.imports.aliases.get(attribute)
        return target is not None and target != qualified and is_type_variable(target, project, depth + 1)
    return isinstance(value, cst.Call) and module.imports.qualify(value.func) in ("typing.TypeVar",
                                                                                 "typing_extensions.TypeVar")


def _namedtuple_call(qualified: str, call: cst.Call, imports: ImportTable, project) -> Type | None:
    """`X = namedtuple("X", ["a", "b"])` (fields are Tensors to TorchScript) or `X = NamedTuple("X", [("a", int)])`
    at module level."""
    function = imports.qualify(call.func)
    if function not in ("collections.namedtuple", "typing.NamedTuple") or len(call.args) < 2:
        return None
    fields = call.args[1].value
    names: list[str] = []
    kinds: list[Type | None] = []
    if isinstance(fields, cst.SimpleString) and isinstance(fields.evaluated_value, str):
        names = fields.evaluated_value.replace(",", " ").split()
        kinds = [TENSOR] * len(names)
    elif isinstance(fields, (cst.List, cst.Tuple)):
        reader = Reader(imports, project)
        for element in fields.elements:
            item = element.value
            if isinstance(item, cst.SimpleString) and isinstance(item.evaluated_value, str):
                names.append(item.evaluated_value)
                kinds.append(TENSOR)
            elif isinstance(item, cst.Tuple) and len(item.elements) == 2 and isinstance(
                    item.elements[0].value, cst.SimpleString):
                names.append(str(item.elements[0].value.evaluated_value))
                kinds.append(reader.read(item.elements[1].value))
            else:
                return None
    else:
        return None
    return tuple_of(kinds, qualified, tuple(names))


class _ClassType(RunFact):
    @classmethod
    def compute(cls, project: "ProjectIndex", owner: "ClassInfo") -> Type | None:
        return _class_type(owner, project)


def class_type(cls: "ClassInfo", project: "ProjectIndex") -> Type | None:
    """The TorchScript type of a project class used as a type: a NamedTuple, an Enum, an interface, a module, or a
    TorchScript class."""
    return run_fact(project, _ClassType, cls)


def _class_type(cls: "ClassInfo", project: "ProjectIndex") -> Type | None:
    bases = {base for base in cls.base_names if base}
    decorators = {cls.module.imports.qualify(d.decorator) for d in cls.node.decorators}
    if bases & _NAMEDTUPLE_BASES:
        return namedtuple_type(cls, project)
    if bases & _ENUM_BASES:
        return nominal("Enum", cls.qualname, enum_value_type(cls))
    is_module = project.is_module_class(cls)
    if decorators & _INTERFACE:
        return nominal("ModuleInterface" if is_module else "Interface", cls.qualname)
    if is_module:
        return nominal("Module", cls.qualname)
    if any(base.startswith(("torch.", "typing.", "abc.", "enum.", "collections.")) and base != "abc.ABC"
           for base in bases):
        return None  # a class derived from a library class: not something TorchScript compiles as a class
    return nominal("Class", cls.qualname)


def namedtuple_type(cls: "ClassInfo", project: "ProjectIndex") -> Type:
    """A `class P(NamedTuple)`: a Tuple named after it, of its annotated fields in order."""
    reader = Reader(cls.module.imports, project)
    names: list[str] = []
    kinds: list[Type | None] = []
    body = cls.node.body.body if isinstance(cls.node.body, cst.IndentedBlock) else ()
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    names.append(small.target.value)
                    kinds.append(reader.read(small.annotation.annotation))
    return tuple_of(kinds, cls.qualname, tuple(names))


def enum_value_type(cls: "ClassInfo") -> Type | None:
    """The one type of an Enum's values (torch requires one: int, float or str)."""
    found: set[Type] = set()
    body = cls.node.body.body if isinstance(cls.node.body, cst.IndentedBlock) else ()
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Assign):
                    value = small.value
                    if isinstance(value, cst.Integer):
                        found.add(INT)
                    elif isinstance(value, cst.Float):
                        found.add(FLOAT)
                    elif isinstance(value, (cst.SimpleString, cst.ConcatenatedString)):
                        found.add(STR)
                    else:
                        return None
    return found.pop() if len(found) == 1 else None


# -- signatures --------------------------------------------------------------------------------------------------
def has_annotations(function: cst.FunctionDef) -> bool:
    params = function.params
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            every.append(star)
    return function.returns is not None or any(param.annotation is not None for param in every)


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


def named_params(params: cst.Parameters) -> list[cst.Param]:
    """A `def`'s parameters that have a name of their own: positional-only, ordinary and keyword-only (not `*args`
    or `**kwargs`), in order."""
    return [*params.posonly_params, *params.params, *params.kwonly_params]


def is_none(node: cst.BaseExpression | None) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


@dataclass(frozen=True)
class Param:
    """One parameter of a compiled signature: its type (None: unknown), whether it was annotated (an unannotated
    parameter is a Tensor, "inferred"), has a default, and is keyword-only."""

    name: str
    type: Type | None
    annotated: bool
    default: cst.BaseExpression | None
    keyword_only: bool
    node: cst.Param

    @property
    def body_type(self) -> Type | None:
        """The type the function's body sees: an unannotated parameter is a Tensor whatever its default. torch
        compiles the body before it converts the defaults (`ir_emitter.cpp`: the defaults are checked when the
        schema is built, after `emitDef`), so a body that uses a parameter with a non-Tensor default as what the
        default is fails there first; callers never see the parameter (the function does not compile), so its
        `type` stays unknown for them."""
        if self.type is None and not self.annotated and self.default is not None:
            return TENSOR
        return self.type


@dataclass(frozen=True)
class Signature:
    """A compiled function's signature as TorchScript types it (less the bound first parameter of a method)."""

    params: tuple[Param, ...]
    returns: Type | None  # the declared return type (None: not declared, or unknown)
    declared_return: bool  # a return type is written (an annotation or the comment's `-> T`)
    by_comment: bool  # typed by a `# type:` signature comment
    varargs: bool  # `*args` or `**kwargs`: torch rejects them in compiled code

    def param(self, name: str) -> Param | None:
        return next((param for param in self.params if param.name == name), None)


def signature(function: cst.FunctionDef, imports: ImportTable, project: "ProjectIndex | None",
              is_method: bool) -> Signature:
    """The signature TorchScript compiles `function` with: annotated parameters have their annotation's type;
    unannotated ones are Tensors (with any default: a non-Tensor default is JIT201's error, and such a parameter is
    left unknown here for callers, a Tensor for the body: `Param.body_type`); with no annotation anywhere, a
    `# type:` comment types them."""
    params = function.params
    ordered = named_params(params)
    if is_method and ordered:
        ordered = ordered[1:]
    keyword_only = {id(param) for param in params.kwonly_params}
    comment = signature_comment(function)
    if comment is not None and comment.params is None and comment.error is None:
        comment = None
    reader = Reader(imports, project)
    found: list[Param] = []
    returns: Type | None = None
    declared = False
    if comment is not None:
        given = comment.params
        usable = given is not None and len(given) == len(ordered)
        comment_reader = Reader(imports, project, implicit=True)
        for index, param in enumerate(ordered):
            kind = comment_reader.read(given[index]) if usable else None
            found.append(Param(param.name.value, kind, True, param.default, id(param) in keyword_only, param))
        if comment.returns is not None:
            declared = True
            returns = comment_reader.read(comment.returns)
    else:
        for param in ordered:
            if param.annotation is not None:
                kind = reader.read(param.annotation.annotation)
                annotated = True
            else:
                annotated = False
                kind = TENSOR if param.default is None or is_none(param.default) else None
            found.append(Param(param.name.value, kind, annotated, param.default, id(param) in keyword_only, param))
        if function.returns is not None:
            declared = True
            returns = reader.read(function.returns.annotation)
    varargs = params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or params.star_kwarg is not None
    return Signature(tuple(found), returns, declared, comment is not None, varargs)


# -- defaults --------------------------------------------------------------------------------------------------------
# A default is a Python value torch converts to the parameter's type (`toIValue`); what it is, as far as the source
# says: "int", "float", "bool", "str", "None", "complex", "dtype", ("tuple", parts), ("list", parts), "dict", or None.
_PyValue = Any


def default_value(node: cst.BaseExpression, imports: ImportTable, project: "ProjectIndex | None",
                  depth: int = 0) -> _PyValue:
    """The Python value a default expression evaluates to, as far as a literal, a tuple or list of them, a torch
    dtype or a module-level literal constant says (None: unknown)."""
    from jitlint.targets.script.literals import literal_type

    if depth > 3:
        return None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        inner = default_value(node.expression, imports, project, depth + 1)
        return inner if inner in ("int", "float", "complex") else ("int" if inner == "bool" else None)
    if isinstance(node, (cst.Tuple, cst.List)):
        parts = tuple(default_value(e.value, imports, project, depth + 1) if isinstance(e, cst.Element) else None
                      for e in node.elements)
        return ("tuple" if isinstance(node, cst.Tuple) else "list", parts)
    if isinstance(node, (cst.Dict, cst.DictComp)):
        return "dict"
    if isinstance(node, (cst.ListComp,)):
        return ("list", None)
    if is_none(node):
        return "None"
    kind = literal_type(node)
    if kind is not None:
        return {"int": "int", "float": "float", "bool": "bool", "str": "str", "None": "None",
                "complex": "complex"}.get(kind)
    if isinstance(node, (cst.Name, cst.Attribute)):
        qualified = imports.qualify(node)
        if qualified is None:
            return None
        if qualified.startswith("torch.") and qualified.count(".") == 1 and qualified[6:] in _DTYPE_NAMES:
            return "dtype"
        if qualified == "math.pi" or qualified == "math.e" or qualified == "math.inf":
            return "float"
        module_name, _, attribute = qualified.rpartition(".")
        owner = project.module(module_name) if project is not None and module_name else None
        if owner is not None and attribute in owner.globals:
            return default_value(owner.globals[attribute], owner.imports, project, depth + 1)
    return None


_DTYPE_NAMES = frozenset(
    "float32 float float64 double float16 half bfloat16 complex64 cfloat complex128 cdouble uint8 int8 int16 short "
    "int32 int int64 long bool".split())


def mutable_default(value: _PyValue) -> str | None:
    """The Python type of a mutable default ("list", "dict"), which torch rejects whatever the annotation."""
    if isinstance(value, tuple) and value[0] == "list":
        return "list"
    return "dict" if value == "dict" else None


def default_fits(value: _PyValue, kind: Type | None) -> bool | None:
    """Whether torch converts a default's Python value to the parameter's type (`toIValue`): False when it cannot
    ("Expected a default value of type T"), None when jitlint cannot tell."""
    if value is None or kind is None:
        return None
    name = kind.name
    if name == "Any":
        return True
    if name == "Optional":
        return True if value == "None" else default_fits(value, kind.args[0])
    if name == "Union":
        verdicts = [default_fits(value, member) for member in kind.args]
        if any(verdict is True for verdict in verdicts):
            return True
        return False if all(verdict is False for verdict in verdicts) else None
    if value == "None":
        if name in ("NoneType", "Tensor"):
            return True
        return False if name in ("int", "float", "bool", "str", "List", "Tuple", "Dict", "Device") else None
    if name == "Tensor":
        return False if value in ("int", "float", "bool", "str", "complex") else None
    if name == "int":
        return True if value in ("int", "bool") else (False if value in ("float", "str", "complex") or isinstance(
            value, tuple) else None)
    if name == "float":
        return True if value in ("int", "float", "bool") else (False if value in ("str", "complex") or isinstance(
            value, tuple) else None)
    if name == "bool":
        return True if value in ("bool", "int") else (False if value == "str" or isinstance(value, tuple) else None)
    if name == "str":
        return True if value == "str" else (False if value in ("int", "float", "bool", "complex") or isinstance(
            value, tuple) else None)
    if name == "Tuple":
        if not isinstance(value, tuple) or value[0] != "tuple":
            return False if value in ("int", "float", "bool", "str") else None
        parts = value[1]
        if parts is None or not kind.fully_known or len(parts) != len(kind.args):
            return None if parts is None or not kind.fully_known else False
        verdicts = [default_fits(part, element) for part, element in zip(parts, kind.args)]
        return False if any(v is False for v in verdicts) else (True if all(v is True for v in verdicts) else None)
    if name == "List":
        if not isinstance(value, tuple):
            return False if value in ("int", "float", "bool", "str") else None
        parts = value[1]
        if parts is None:
            return None
        verdicts = [default_fits(part, kind.args[0]) for part in parts]
        return False if any(v is False for v in verdicts) else (True if all(v is True for v in verdicts) else None)
    return None

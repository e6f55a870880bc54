"""The values of the tracing model (`jitlint.targets.fx.tracing`): what a name or an expression holds while
`torch.fx.symbolic_trace` runs traced code.

Every value is a Proxy, a concrete value (known exactly, or only by kind), a container of values, a module, a
class object, or unknown. Values are frozen and hashable: the argument values a function is called with are the
key of its analysis in that context.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

import libcst as cst

if TYPE_CHECKING:
    from jitlint.project import ModuleInfo


@dataclass(frozen=True)
class Proxy:
    """A `torch.fx.Proxy`: a graph node standing for a tensor, a size, a dtype, a device or any value derived from
    one. `what` names what it stands for (for messages only)."""

    what: str = "value"


@dataclass(frozen=True)
class Const:
    """A Python value known exactly: None, a bool, a number, a string, or a tuple of those."""

    value: Any


@dataclass(frozen=True)
class Concrete:
    """A value that is certainly not a Proxy and holds none, known only by kind: "int", "float", "bool", "str",
    "tensor" (a real tensor: a buffer, a constant), "dtype", "device", "slice", "callable", "object", or None
    (any concrete value)."""

    kind: str | None = None


@dataclass(frozen=True)
class Seq:
    """A list, tuple or generator (`kind`): its items when their number is known, else None; `item` is the join of
    what any item may hold."""

    kind: str
    items: tuple | None
    item: "Value"


@dataclass(frozen=True)
class Mapping:
    """A dict: `item` joins its values; `proxy_key` when a Proxy was used as one of its keys."""

    item: "Value"
    proxy_key: bool = False


@dataclass(frozen=True)
class Module:
    """An nn.Module instance. `classes`: the project classes it may be an instance of (ClassInfo, compared by
    identity) or the qualified names of torch.nn classes; for a container ("ModuleList", "Sequential",
    "ModuleDict" in `container`), the classes of its elements; `local` when it was built in the traced code
    (symbolic_trace knows only installed submodules); `root_argument` when it is the traced root itself, given to
    a static `forward` as its first parameter."""

    classes: frozenset = frozenset()
    container: str | None = None
    local: bool = False
    root_argument: bool = False
    order: tuple | None = None  # a container's elements in order (a class each), when all are known
    with_defaults: bool = False  # the traced root, built with its constructor's defaults (the model checked)

    def element(self) -> "Module":
        """What an element of this container is (an item of a ModuleList, a step of a Sequential)."""
        return Module(self.classes) if self.container else Module()


@dataclass(frozen=True)
class TypeValue:
    """A class object, by qualified name (`type(p)` of a Proxy is `torch.fx.proxy.Proxy`)."""

    name: str


@dataclass(frozen=True)
class Closure:
    """A lambda or a function defined inside traced code (`key`: the id of its node, known to the model)."""

    key: int


@dataclass(frozen=True)
class Unknown:
    """Anything; `maybe_proxy` when it may be, or hold, a Proxy."""

    maybe_proxy: bool = True


Value = Union[Proxy, Const, Concrete, Seq, Mapping, Module, TypeValue, Closure, Unknown]

PROXY = Proxy()
UNKNOWN = Unknown(True)
OPAQUE = Unknown(False)  # anything, but no Proxy: what a failed operation leaves (no cascade of findings)
CONCRETE = Concrete(None)
NONE = Const(None)
EMPTY = Concrete("empty")  # what an item of an empty container holds: nothing (the unit of `join`)
PROXY_TYPE = "torch.fx.proxy.Proxy"


def kind_of_const(value: Any) -> str | None:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    return None


def kind_of(value: Value) -> str | None:
    """The concrete kind of a value ("int", "tensor", ...), None when not one concrete kind."""
    if isinstance(value, Const):
        return kind_of_const(value.value)
    if isinstance(value, Concrete):
        return value.kind
    return None


def may_hold_proxy(value: Value) -> bool:
    """Whether the value may be, or contain, a Proxy."""
    if isinstance(value, Proxy):
        return True
    if isinstance(value, Unknown):
        return value.maybe_proxy
    if isinstance(value, Seq):
        return any(may_hold_proxy(item) for item in value.items) if value.items is not None else may_hold_proxy(value.item)
    if isinstance(value, Mapping):
        return value.proxy_key or may_hold_proxy(value.item)
    return False


def holds_proxy(value: Value) -> bool:
    """Whether the value certainly is, or contains, a Proxy (what `torch.fx` finds when it searches arguments). A
    list of unknown length whose every item is a Proxy counts as holding one (lists are filled to be used)."""
    if isinstance(value, Proxy):
        return True
    if isinstance(value, Seq):
        if value.items is not None:
            return any(holds_proxy(item) for item in value.items)
        return value.kind != "generator" and holds_proxy(value.item)
    if isinstance(value, Mapping):
        return value.proxy_key
    return False


def non_empty(value: Value) -> bool:
    """Whether iterating the value certainly yields an item."""
    if isinstance(value, Seq):
        return bool(value.items)
    if isinstance(value, Const) and isinstance(value.value, (tuple, str)):
        return bool(value.value)
    if isinstance(value, Module):
        return bool(value.order)
    return False


def sequence(kind: str, items) -> Seq:
    items = tuple(items)
    return Seq(kind, items, join_all(items))


def join_all(values) -> Value:
    result: Value = EMPTY
    for value in values:
        result = join(result, value)
    return result


def join(first: Value, second: Value) -> Value:
    """What a name holds after two paths that leave it `first` and `second`."""
    if first == second or second == EMPTY:
        return first
    if first == EMPTY:
        return second
    if isinstance(first, Unknown) or isinstance(second, Unknown):
        return Unknown(may_hold_proxy(first) or may_hold_proxy(second))
    if isinstance(first, Proxy) and isinstance(second, Proxy):
        return PROXY
    if isinstance(first, Proxy) or isinstance(second, Proxy):
        return UNKNOWN
    if isinstance(first, (Const, Concrete)) and isinstance(second, (Const, Concrete)):
        if NONE in (first, second):
            return CONCRETE
        a, b = kind_of(first), kind_of(second)
        return Concrete(a if a == b else None)
    if isinstance(first, Seq) and isinstance(second, Seq):
        kind = first.kind if first.kind == second.kind else "sequence"
        if first.items is not None and second.items is not None and len(first.items) == len(second.items):
            return Seq(kind, tuple(join(a, b) for a, b in zip(first.items, second.items)), join(first.item, second.item))
        return Seq(kind, None, join(first.item, second.item))
    if isinstance(first, Mapping) and isinstance(second, Mapping):
        return Mapping(join(first.item, second.item), first.proxy_key or second.proxy_key)
    if isinstance(first, Module) and isinstance(second, Module):
        if first.container != second.container:
            return Module(frozenset(), None, first.local or second.local)
        return Module(first.classes | second.classes, first.container, first.local or second.local)
    return Unknown(may_hold_proxy(first) or may_hold_proxy(second))


def widen(value: Value) -> Value:
    """The value with exact constants forgotten (kinds kept): bounds the contexts a function is analysed in."""
    if isinstance(value, Const):
        kind = kind_of_const(value.value)
        return value if value.value is None or kind == "bool" else Concrete(kind)
    if isinstance(value, Seq):
        return Seq(value.kind, None, widen(value.item))
    if isinstance(value, Mapping):
        return Mapping(widen(value.item), value.proxy_key)
    return value


_SEQUENCE_ANNOTATIONS = frozenset({"typing.List", "typing.Tuple", "typing.Sequence", "builtins.list", "builtins.tuple",
                                   "collections.abc.Sequence"})
_SCALAR_ANNOTATIONS = {"builtins.int": "int", "builtins.float": "float", "builtins.bool": "bool", "builtins.str": "str"}


def annotated_value(param: cst.Param, module: "ModuleInfo") -> Value:
    """What a forward parameter whose callers are unknown holds, by its annotation (`TracingModel.guessed_context`)."""
    if param.annotation is None:
        return PROXY
    imports = module.imports
    annotation = param.annotation.annotation
    outer = annotation.value if isinstance(annotation, cst.Subscript) else annotation
    qualified = imports.qualify(outer) or ""
    if qualified == "typing.Optional" and isinstance(annotation, cst.Subscript) and annotation.slice:
        inner = annotation.slice[0].slice
        if isinstance(inner, cst.Index):
            outer = inner.value.value if isinstance(inner.value, cst.Subscript) else inner.value
            qualified = imports.qualify(outer) or ""
    if qualified == "torch.Tensor":
        return PROXY
    if qualified in _SEQUENCE_ANNOTATIONS:
        return Seq("list", None, PROXY)
    if qualified in _SCALAR_ANNOTATIONS:
        return Concrete(_SCALAR_ANNOTATIONS[qualified])
    return UNKNOWN

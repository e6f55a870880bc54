"""What a class's attributes hold, as the index records it from any parser: the kinds of value assigned to
`self.<name>` (`CallResult`, `MethodResult`, `CollectionOf`, `ElementOf`, or a plain string), one `AttributeInfo`
per attribute, and `AttributeRecorder`, which keeps what one method's statements say of them (read with LibCST by
`project.SelfAssignmentCollector`, with `ast` by `jitlint.summary`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import libcst as cst

    from jitlint.names import ImportTable
    from jitlint.project import ClassInfo


class Lazy:
    """A LibCST node of a module indexed from its summary (`jitlint.summary`), parsed from the file's text when it is
    first read: `resolve(*args)` gives it. The index's fields that hold nodes hold one of these until then."""

    __slots__ = ("resolve", "args")

    def __init__(self, resolve, *args) -> None:
        self.resolve = resolve
        self.args = args

    def get(self):
        return self.resolve(*self.args)


@dataclass(frozen=True)
class CallResult:
    """What a call of `qualified` returns (`self.fc = nn.Linear(...)`). `ProjectIndex.attributes` resolves it to
    a container kind ("ModuleList"...), "module" or "object", and keeps it when it is none of those."""

    qualified: str


@dataclass(frozen=True)
class MethodResult:
    """What `self.<name>(...)` returns (`self.layer1 = self._make_layer(...)`, torchvision's and timm's idiom).
    Resolved to the kinds of the method's return values."""

    name: str


@dataclass(frozen=True)
class CollectionOf:
    """A "list" (list, tuple or list comprehension) or "dict" (dict or dict comprehension) of elements of
    `element` kind. Resolved to "list-of-modules"/"dict-of-modules" when the elements are modules, else to
    "list"/"dict"."""

    collection: str
    element: "Kind"


@dataclass(frozen=True)
class ElementOf:
    """Element `index` of what a call returns, unpacked into a tuple target (`self.stage2, channels =
    self._make_stage(...)`, hrnet's idiom): `source` is the call's `MethodResult` or `CallResult` (of a project
    function). Resolved through the function's `return a, b` statements to the kinds of that element."""

    source: "MethodResult | CallResult"
    index: int


# What `self.x = <value>` holds (see `value_kinds`): a plain string, or one of the values above that
# `ProjectIndex.attributes` resolves. The rules read resolved kinds: the plain strings, and the `CallResult`s
# that resolve to no kind.
Kind = str | CallResult | MethodResult | CollectionOf | ElementOf


_NO_KINDS: frozenset = frozenset()


class AttributeInfo:
    """What `self.<name>` holds in a module, seen from `__init__` (and other methods) and the class body.

    There is one per attribute of every class, and one more per attribute of each class that `ProjectIndex.attributes`
    merges over its bases (transformers: tens of thousands): the collections are immutable and start as the shared
    empty ones, so an attribute costs its slots and what it holds, not five empty containers (about 1 KB). Update
    them by rebinding (`info.kinds = joined(info.kinds, {kind})`, `info.init_values += (value,)`).

    Fields:
    - kinds: what it holds; final: annotated `Final[...]` in the class body; function: qualified name of a function
      stored in it; constructors: qualified names of the classes assigned to it; assigned_in: names of the methods
      that assign `self.<name> = ...`; init_kinds: kinds assigned in `__init__` (the state torch scripts);
      filled_in_init: `__init__` adds items (`self.x[k] = v`, `self.x.append(v)`): not empty then;
    - init_bool: the bool `__init__` assigns: a literal, or the default of the `__init__` parameter assigned (the
      default configuration); with `constant`, torch folds `if self.flag:` to this value and prunes the other
      branch;
    - class_value: `name = value` in the class body; annotation: `name: T` in the class body (both parsed when first
      read, in a module indexed from its summary);
    - registered: register_buffer / register_parameter / add_module with this literal name;
    - init_values: the values `__init__` assigns, in source order (base classes first, once merged), for a target to
      type in its own terms; annotation_imports: the imports the class-level `annotation` is written with (it may
      come from a base class in another file)."""

    __slots__ = ("kinds", "final", "function", "constructors", "assigned_in", "init_kinds", "filled_in_init",
                 "init_bool", "_class_value", "_annotation", "registered", "init_values", "annotation_imports")

    def __init__(self, kinds: frozenset = _NO_KINDS, final: bool = False, function: str | None = None,
                 constructors: frozenset = _NO_KINDS, assigned_in: frozenset = _NO_KINDS,
                 init_kinds: frozenset = _NO_KINDS, filled_in_init: bool = False, init_bool: bool | None = None,
                 class_value=None, annotation=None, registered: bool = False,
                 init_values: tuple = (), annotation_imports: ImportTable | None = None) -> None:
        self.kinds = kinds
        self.final = final
        self.function = function
        self.constructors = constructors
        self.assigned_in = assigned_in
        self.init_kinds = init_kinds
        self.filled_in_init = filled_in_init
        self.init_bool = init_bool
        self._class_value = class_value
        self._annotation = annotation
        self.registered = registered
        self.init_values = init_values
        self.annotation_imports = annotation_imports

    @property
    def class_value(self) -> cst.BaseExpression | None:
        value = self._class_value
        if type(value) is Lazy:
            value = self._class_value = value.get()
        return value

    @class_value.setter
    def class_value(self, value) -> None:
        self._class_value = value

    @property
    def annotation(self) -> cst.BaseExpression | None:
        value = self._annotation
        if type(value) is Lazy:
            value = self._annotation = value.get()
        return value

    @annotation.setter
    def annotation(self, value) -> None:
        self._annotation = value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, AttributeInfo):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.__slots__)

    __hash__ = None  # mutable

    def __repr__(self) -> str:
        fields = ", ".join(f"{name.lstrip('_')}={getattr(self, name)!r}" for name in self.__slots__)
        return f"AttributeInfo({fields})"


_SMALL_SETS: dict[frozenset, frozenset] = {}  # one instance of each small set of kinds or names, as `sys.intern`
_MAX_SMALL_SETS = 1 << 16


def joined(held: frozenset, more) -> frozenset:
    """`held | more` as a frozenset, sharing `held` or `more` when the other adds nothing (an `AttributeInfo`'s
    collections are immutable, so a merged attribute may share its base's), and one instance of each small result:
    the same few sets (`{"module"}`, `{"__init__"}`) are held by most attributes. What they hold is strings and
    frozen kinds, never a node, so the shared instances keep no tree alive."""
    if not more or more <= held:
        return held
    if not held and type(more) is frozenset:
        return more
    return shared(held | more if held else more)


def shared(values) -> frozenset:
    """`frozenset(values)`, one instance of each small one (see `joined`)."""
    result = values if type(values) is frozenset else frozenset(values)
    if len(result) <= 4 and len(_SMALL_SETS) < _MAX_SMALL_SETS:
        return _SMALL_SETS.setdefault(result, result)
    return result


REGISTRATIONS = frozenset({"register_buffer", "register_parameter", "add_module", "register_module"})


class AttributeRecorder:
    """What one method's statements say of its class's attributes, recorded on the class's `ClassInfo`, whichever
    parser read the method (LibCST: `SelfAssignmentCollector`; `ast`: `jitlint.summary`): a reader turns the
    syntax into these facts (an attribute assigned, with what its value is known to hold; filled; registered), the
    recorder keeps them the one way."""

    __slots__ = ("info", "method", "in_init")

    def __init__(self, info: ClassInfo, method: str) -> None:
        self.info = info
        self.method = method
        self.in_init = method == "__init__"

    def attribute(self, name: str) -> "AttributeInfo":
        return self.info.own_attributes.setdefault(name, AttributeInfo())

    def computed_name(self) -> None:
        """An attribute whose name is computed (`setattr(self, name, v)`): which attributes exist is unknown."""
        self.info.dynamic_attributes = True

    def filled(self, name: str) -> None:
        """`self.<name>[key] = v`, `self.<name>.append(v)`: in `__init__`, the container is not empty after it."""
        if self.in_init:
            self.attribute(name).filled_in_init = True

    def registered(self, name: str) -> None:
        """`self.register_buffer("<name>", ...)` and the like."""
        self.attribute(name).registered = True

    def assigned(self, name: str, kinds: "set[Kind] | None" = None) -> None:
        """`self.<name>` assigned a value nothing is known of (`setattr`, an unpacked target), or one that holds
        `kinds` (an element of an unpacked call's result)."""
        attribute = self.attribute(name)
        attribute.assigned_in = joined(attribute.assigned_in, {self.method})
        if kinds is not None:
            attribute.kinds = joined(attribute.kinds, kinds)
            if self.in_init:
                attribute.init_kinds = joined(attribute.init_kinds, kinds)

    def stored(self, name: str, kinds: "set[Kind]", function: str | None, value, init_bool) -> None:
        """`self.<name> = value`, the value holding `kinds` (`value_kinds`; `function`: the qualified name of a
        function stored by reference). In `__init__` only: `value()` is the value's `SourceExpression`, and
        `init_bool()` the bool it assigns (`AttributeInfo.init_bool`)."""
        attribute = self.attribute(name)
        attribute.assigned_in = joined(attribute.assigned_in, {self.method})
        attribute.kinds = joined(attribute.kinds, kinds)
        if self.in_init:
            attribute.init_kinds = joined(attribute.init_kinds, kinds)
            attribute.init_values += (value(),)
            attribute.init_bool = init_bool()
        attribute.constructors = joined(attribute.constructors,
                                        {kind.qualified for kind in kinds if isinstance(kind, CallResult)})
        if function:
            attribute.function = function


FILLING_METHODS = ("append", "extend", "insert", "update", "add", "setdefault")

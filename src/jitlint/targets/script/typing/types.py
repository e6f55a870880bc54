"""The TorchScript type lattice, as c10's `jit_type` defines it: the types, one subtype relation, the implicit
conversions the frontend makes, one join, and one printer.

A `Type` is a constructor name and its arguments. What jitlint does not know is Python's `None`, never a `Type`
(an unknown part of a container is a `None` among its `args`): every relation answers `None` ("maybe") when an
unknown part decides, so a check that needs a certain answer stays silent there.

- `subtype(a, b)` is `Type::isSubtypeOfExt` (aten/src/ATen/core/type.cpp, union_type.cpp): int, float and complex
  are numbers, None and T are `Optional[T]`, a member is a subtype of its Union, lists and dicts are invariant, tuples
  are covariant (a NamedTuple is a tuple, not the converse), everything is an `Any`, a class is an interface it
  implements.
- `convert(value, target)` is `tryConvertToType` (ir_emitter_utils.cpp): the conversions the frontend inserts where
  it knows the type it needs (arguments of a call, a variable's earlier type, a declared return type): a tuple of
  Ts to a `List[T]`, and with conversions allowed a Tensor or a number to an int, float or number, a bool to an int,
  float or number, a str to a Device. `assignable` is the two together.
- `join(a, b)` is `unifyTypes` (the type a variable takes after an `if`, an if-expression's, a list literal's
  element): the supertype if one is a subtype of the other, `Optional[T]` for None and T, tuples element by element.
- `spell` is `repr_str()` (the way torch's messages print a type); `describe` says "an int", "a List[int]".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Literal

# Constructors of types without arguments.
TENSOR_NAME = "Tensor"
SIMPLE = frozenset({
    "Tensor", "int", "float", "complex", "bool", "str", "NoneType", "Device", "number", "Any", "Generator",
    "Stream", "Storage", "Capsule", "AnyList", "AnyTuple", "AnyClass", "AnyEnum",
})
# Constructors whose `qualname` names a Python class.
NOMINAL = frozenset({"Class", "Module", "Interface", "ModuleInterface", "Enum"})


@dataclass(frozen=True, slots=True)
class Type:
    """A TorchScript type. `args` are the type arguments (None for a part jitlint does not know): the element of a
    List, Optional, Future; the elements of a Tuple; key and value of a Dict; the members of a Union; the value
    type of an Enum. `qualname` names a class (Class, Module, Interface, Enum, a NamedTuple's Tuple) by its Python
    qualified name, or a type variable (Var); `fields` are a NamedTuple's field names."""

    name: str
    args: tuple["Type | None", ...] = ()
    qualname: str = ""
    fields: tuple[str, ...] = ()

    def __str__(self) -> str:
        return spell(self)

    def __repr__(self) -> str:
        return f"Type({spell(self)!r})"

    # -- shapes ------------------------------------------------------------------------------------------------
    @property
    def is_optional(self) -> bool:
        """`Optional[T]`: a Union of one type and None (`inner` is T)."""
        return self.name == "Optional"

    @property
    def inner(self) -> "Type | None":
        if self.name != "Optional":
            raise ValueError(f"{spell(self)} is not an Optional")
        return self.args[0]

    @property
    def is_list(self) -> bool:
        return self.name == "List"

    @property
    def element(self) -> "Type | None":
        if self.name != "List":
            raise ValueError(f"{spell(self)} is not a List")
        return self.args[0]

    @property
    def is_tuple(self) -> bool:
        return self.name == "Tuple"

    @property
    def is_namedtuple(self) -> bool:
        return self.name == "Tuple" and bool(self.qualname)

    @property
    def is_dict(self) -> bool:
        return self.name == "Dict"

    @property
    def is_union(self) -> bool:
        """A Union of several types (an Optional is reported by `is_optional`)."""
        return self.name == "Union"

    @property
    def is_class(self) -> bool:
        return self.name in NOMINAL

    @property
    def fully_known(self) -> bool:
        """No part of the type is unknown."""
        return all(arg is not None and arg.fully_known for arg in self.args)

    def members(self) -> tuple["Type | None", ...]:
        """The types a value of this type may be: a Union's members, an Optional's element and None, else itself."""
        if self.name == "Union":
            return self.args
        if self.name == "Optional":
            return (self.args[0], NONE)
        return (self,)


def _simple(name: str) -> Type:
    return Type(name)


TENSOR = _simple("Tensor")
INT = _simple("int")
FLOAT = _simple("float")
COMPLEX = _simple("complex")
BOOL = _simple("bool")
STR = _simple("str")
NONE = _simple("NoneType")
DEVICE = _simple("Device")
NUMBER = _simple("number")  # `Scalar`: an int, a float or a complex (what `.item()` returns)
ANY = _simple("Any")
GENERATOR = _simple("Generator")
STREAM = _simple("Stream")
ANY_LIST = _simple("AnyList")
ANY_TUPLE = _simple("AnyTuple")
ANY_CLASS = _simple("AnyClass")
ANY_ENUM = _simple("AnyEnum")
SCALARS = frozenset({TENSOR, INT, FLOAT, BOOL, STR, NONE})
NUMBERS = frozenset({INT, FLOAT, COMPLEX})


def list_of(element: Type | None) -> Type:
    return Type("List", (element,))


def tuple_of(elements: Iterable[Type | None], qualname: str = "", fields: tuple[str, ...] = ()) -> Type:
    return Type("Tuple", tuple(elements), qualname, fields)


def dict_of(key: Type | None, value: Type | None) -> Type:
    return Type("Dict", (key, value))


def future_of(element: Type | None) -> Type:
    return Type("Future", (element,))


def var(name: str) -> Type:
    """A schema's type variable (`t` in `aten::append.t(t[] self, t el)`)."""
    return Type("Var", (), name)


def nominal(kind: str, qualname: str, value: Type | None = None) -> Type:
    """A class type: "Class" (a TorchScript class), "Module" (an nn.Module class), "Interface", "ModuleInterface",
    or "Enum" (with its value type)."""
    if kind not in NOMINAL:
        raise ValueError(kind)
    return Type(kind, (value,) if kind == "Enum" else (), qualname)


def optional_of(element: Type | None) -> Type | None:
    """`Optional[T]`, as c10 builds it: `Optional[None]` is None, `Optional[Optional[T]]` is `Optional[T]`, and an
    Optional of a Union is the Union with None among its members. Unknown stays unknown."""
    if element is None:
        return Type("Optional", (None,))
    if element == NONE or element.name == "Optional":
        return element
    if element.name == "Union":
        return union_of((*element.args, NONE))
    return Type("Optional", (element,))


def union_of(members: Iterable[Type | None]) -> Type | None:
    """`Union[...]`, canonical as c10's `UnionType::create` makes it: nested Unions and Optionals flattened,
    duplicates and members that are subtypes of another member dropped, one member left is that member, and a Union
    of one type and None is `Optional[T]`. None when a member is unknown."""
    flat: list[Type] = []
    for member in members:
        if member is None:
            return None
        for part in member.members() if member.name in ("Union", "Optional") else (member,):
            if part is None:
                return None
            if part not in flat:
                flat.append(part)
    kept = [m for m in flat if not any(o is not m and o != m and subtype(m, o) is True for o in flat)]
    if not kept:
        return None
    if len(kept) == 1:
        return kept[0]
    if len(kept) == 2 and NONE in kept:
        return Type("Optional", (kept[0] if kept[1] == NONE else kept[1],))
    return Type("Union", tuple(sorted(kept, key=spell)))


# -- the subtype relation ----------------------------------------------------------------------------------------
Maybe = bool | None  # None: unknown, decided by a part jitlint does not know

# Interface checks need the methods of classes; the typer gives a function answering "is class `a` (qualified name)
# an implementation of interface `b`", or leaves it out (then the answer is unknown).
Implements = Callable[[Type, Type], Maybe]


def _all(answers: Iterable[Maybe]) -> Maybe:
    unknown = False
    for answer in answers:
        if answer is False:
            return False
        if answer is None:
            unknown = True
    return None if unknown else True


def _any(answers: Iterable[Maybe]) -> Maybe:
    unknown = False
    for answer in answers:
        if answer is True:
            return True
        if answer is None:
            unknown = True
    return None if unknown else False


def equal(a: Type | None, b: Type | None) -> Maybe:
    """Type equality, unknown where an unknown part decides."""
    if a is None or b is None:
        return None
    if a.fully_known and b.fully_known:
        return a == b
    if a.name != b.name or a.qualname != b.qualname or len(a.args) != len(b.args):
        return False
    return _all(equal(x, y) for x, y in zip(a.args, b.args))


def subtype(a: Type | None, b: Type | None, implements: Implements | None = None) -> Maybe:
    """Whether every value of type `a` is a value of type `b` (`isSubtypeOfExt`)."""
    if a is None or b is None:
        return None
    if a == b or b == ANY:
        return True
    if a.name == "Var" or b.name == "Var":
        return None  # a free type variable: matched by the call matcher, not here
    # A Union (or Optional) on the left: each of its members must be a subtype.
    if a.name in ("Union", "Optional"):
        return _all(subtype(member, b, implements) for member in a.members())
    # A Union (or Optional) on the right: `a` must be a subtype of one member.
    if b.name in ("Union", "Optional"):
        direct = _direct(a, b, implements)
        if direct is True:
            return True
        return _any(subtype(a, member, implements) for member in b.members())
    return _direct(a, b, implements)


def _direct(a: Type, b: Type, implements: Implements | None) -> Maybe:
    """The subtype rules of the constructor of `a` against a `b` that is no Union (or a Union, for the rules that
    compare whole types)."""
    if a.name in ("int", "float", "complex") and b == NUMBER:
        return True
    if a.name == "List":
        if b == ANY_LIST:
            return True
        return equal(a, b) if b.name == "List" else False
    if a.name == "Dict":
        return equal(a, b) if b.name == "Dict" else False
    if a.name == "Tuple":
        if b == ANY_TUPLE:
            return True
        if b.name != "Tuple" or len(a.args) != len(b.args):
            return False
        if b.qualname and not a.qualname:
            return False  # an unnamed tuple is no NamedTuple
        if b.qualname and (a.qualname != b.qualname or a.fields != b.fields):
            return False
        return _all(subtype(x, y, implements) for x, y in zip(a.args, b.args))
    if a.name in ("Future", "Await", "RRef"):
        return subtype(a.args[0], b.args[0], implements) if b.name == a.name else False
    if a.name in ("Class", "Module"):
        if b == ANY_CLASS and a.name == "Class":
            return True
        if b.name in ("Interface", "ModuleInterface"):
            if b.name == "ModuleInterface" and a.name != "Module":
                return False
            return implements(a, b) if implements is not None else None
        return a == b
    if a.name in ("Interface", "ModuleInterface"):
        if b.name in ("Interface", "ModuleInterface"):
            return implements(a, b) if implements is not None else None
        return False
    if a.name == "Enum":
        return b == ANY_ENUM or a == b
    return a == b


def is_optional_like(kind: Type | None) -> Maybe:
    """Whether None is a value of this type (an Optional, a Union with None, None itself, or Any)."""
    if kind is None:
        return None
    if kind.name in ("Optional", "NoneType", "Any"):
        return True
    if kind.name == "Union":
        return NONE in kind.args
    return False


def without_none(kind: Type | None) -> Type | None:
    """The type a value of `kind` has once it is known not to be None (refinement by `is not None`)."""
    if kind is None:
        return None
    if kind.name == "Optional":
        return kind.args[0]
    if kind.name == "Union" and NONE in kind.args:
        return union_of(member for member in kind.args if member != NONE)
    return kind


# -- implicit conversions ----------------------------------------------------------------------------------------
def convertible_to_list(value: Type | None, target: Type | None) -> Maybe:
    """`convertibleToList`: a tuple whose elements are all subtypes of a list's element type becomes that list."""
    if value is None or target is None:
        return None
    if target.name == "Optional":
        target = target.args[0]
        if target is None:
            return None
    if target.name != "List" or value.name != "Tuple":
        return False
    return _all(subtype(element, target.args[0]) for element in value.args)


def convert(value: Type | None, target: Type | None, conversions: bool = True) -> Type | None:
    """The type of `value` after `tryConvertToType` to `target`: what the frontend passes on (the check that it
    then fits is `subtype`). With `conversions` False only the tuple-to-list conversion is made."""
    if value is None or target is None:
        return value
    if target.name == "Optional" and value.name != "Optional" and value != NONE and target.args[0] is not None:
        return convert(value, target.args[0], conversions)
    if value.name == "Tuple":
        to_list = convertible_to_list(value, target)
        if to_list is True:
            return target.args[0] if target.name == "Optional" else target
        if to_list is None:
            return None  # a tuple with elements of unknown types, given for a list: converted or not is unknown
        if target.name == "Tuple" and len(target.args) == len(value.args):
            return tuple_of((convert(v, t, conversions) for v, t in zip(value.args, target.args)),
                            value.qualname, value.fields)
    if conversions:
        if value == TENSOR or value == NUMBER:
            if target in (FLOAT, INT, COMPLEX, NUMBER):
                return target if not (value == NUMBER and target == NUMBER) else value
        elif value == BOOL:
            if target == FLOAT:
                return FLOAT
            if target in (INT, NUMBER):
                return INT
        if value == STR and target == DEVICE:
            return DEVICE
    return value


def assignable(value: Type | None, target: Type | None, conversions: bool = True,
               implements: Implements | None = None) -> Maybe:
    """Whether a value of type `value` can be given where `target` is declared: converted (`convert`), then a
    subtype. `conversions` is False where the frontend converts nothing (an annotated assignment)."""
    return subtype(convert(value, target, conversions), target, implements)


# -- the join ----------------------------------------------------------------------------------------------------
NoJoin = Literal[False]


def join(a: Type | None, b: Type | None, implements: Implements | None = None,
         hint: Type | None = None, to_union: bool = False) -> Type | None | NoJoin:
    """`unifyTypes(a, b)`: the one type both values can be seen as, False when there is none (torch then rejects
    the `if`, the if-expression, the loop), None when unknown. `hint` is a common supertype torch may use (an
    annotated interface). `to_union` (`default_to_union`, for a list display's elements): where two types do not
    join, their Union, inside tuples too."""
    joined = _join(a, b, implements, hint, to_union)
    if joined is False and to_union:
        return union_of((a, b))
    return joined


def _join(a: Type | None, b: Type | None, implements: Implements | None, hint: Type | None,
          to_union: bool) -> Type | None | NoJoin:
    if a is None or b is None:
        return None
    if subtype(a, b, implements) is True:
        return b
    if subtype(b, a, implements) is True:
        return a
    if a.fully_known and b.fully_known:
        return _join_known(a, b, implements, hint, to_union)
    # An unknown part: try the rules that do not depend on it, else unknown.
    if a == NONE and b != NONE:
        return optional_of(b)
    if b == NONE and a != NONE:
        return optional_of(a)
    if a.name != b.name and a.name not in ("Optional", "Union") and b.name not in ("Optional", "Union"):
        if not (a.name in ("Class", "Module", "Interface") or b.name in ("Class", "Module", "Interface")):
            return False  # different constructors never unify (an int and a Tensor, a List and a Tuple)
    if a.name == b.name == "Tuple":
        if len(a.args) != len(b.args):
            return False
        elements = [join(x, y, implements, to_union=to_union) for x, y in zip(a.args, b.args)]
        if any(element is False for element in elements):
            return False
        return tuple_of(elements)
    if a.name == b.name and a.name in ("List", "Dict"):
        same = equal(a, b)
        return False if same is False else None
    return None


def _join_known(a: Type, b: Type, implements: Implements | None, hint: Type | None,
                to_union: bool = False) -> Type | NoJoin | None:
    if a == NONE:
        return optional_of(b)
    if b == NONE:
        return optional_of(a)
    if a.name == "Optional":
        inner = _join(a.args[0], b, implements, None, to_union)
        return optional_of(inner) if isinstance(inner, Type) else inner
    if b.name == "Optional":
        inner = _join(a, b.args[0], implements, None, to_union)
        return optional_of(inner) if isinstance(inner, Type) else inner
    if a.name == b.name == "Tuple" and len(a.args) == len(b.args):
        elements = [join(x, y, implements, to_union=to_union) for x, y in zip(a.args, b.args)]
        if any(element is False for element in elements):
            return False
        if any(element is None for element in elements):
            return None
        return tuple_of(elements)
    if a.name == b.name == "Future":
        inner = join(a.args[0], b.args[0], implements)
        return future_of(inner) if isinstance(inner, Type) else inner
    if hint is not None and subtype(a, hint, implements) is True and subtype(b, hint, implements) is True:
        return hint
    if (subtype(a, hint, implements) is None or subtype(b, hint, implements) is None) and hint is not None:
        return None
    if implements is None and {a.name, b.name} & {"Interface", "ModuleInterface"}:
        return None
    return False


def join_all(types: Iterable[Type | None], implements: Implements | None = None,
             hint: Type | None = None) -> Type | None | NoJoin:
    """`unifyTypeList`: the join of every type, in order."""
    result: Type | None | NoJoin = None
    first = True
    for kind in types:
        if first:
            result, first = kind, False
            continue
        if result is False:
            return False
        result = join(result, kind, implements, hint)
    return result


def join_or_union(types: Iterable[Type | None], hint: Type | None = None) -> Type | None:
    """`unifyTypeList(..., default_to_union=true)`: the join of every type, in order, each pair joined into their
    Union where it does not join (a list display's element type)."""
    result: Type | None | NoJoin = None
    for index, kind in enumerate(types):
        if index == 0:
            result = kind
            continue
        if result is None or kind is None:
            return None
        result = join(result, kind, hint=hint, to_union=True)
        if result is False or result is None:
            return None
    return result


# -- printing ------------------------------------------------------------------------------------------------------
def spell(kind: Type | None) -> str:
    """A type as torch's messages print it (`repr_str`): `List[int]`, `Optional[Tensor]`, `NoneType`."""
    if kind is None:
        return "Any"
    name = kind.name
    if name in ("Class", "Module", "Interface", "ModuleInterface", "Enum"):
        return f"__torch__.{kind.qualname}"
    if name == "Var":
        return kind.qualname
    if name == "Tuple":
        if kind.qualname:
            return kind.qualname.rsplit(".", 1)[-1]  # a NamedTuple
        if not kind.args:
            return "Tuple[()]"
    if name in ("AnyList", "AnyTuple", "AnyClass", "AnyEnum"):
        return {"AnyList": "list", "AnyTuple": "tuple", "AnyClass": "AnyClassType",
                "AnyEnum": "AnyEnumType"}[name]
    if not kind.args:
        return name
    return f"{name}[{', '.join(spell(arg) for arg in kind.args)}]"


def annotation(kind: Type, tensor: str = "torch.Tensor") -> str:
    """A type as a user writes it in an annotation (`List[int]`, `Optional[torch.Tensor]`), for fixes and advice."""
    name = kind.name
    if kind == TENSOR:
        return tensor
    if kind == NONE:
        return "None"
    if name in ("Class", "Module", "Interface", "ModuleInterface", "Enum"):
        return kind.qualname.rsplit(".", 1)[-1]
    if name == "Tuple" and kind.qualname:
        return kind.qualname.rsplit(".", 1)[-1]
    if name == "Tuple" and not kind.args:
        return "Tuple[()]"
    if name == "Device":
        return "torch.device"
    if name in ("AnyList", "AnyTuple"):
        return "list" if name == "AnyList" else "tuple"
    if not kind.args:
        return name
    return f"{name}[{', '.join(annotation(arg, tensor) if arg is not None else 'Any' for arg in kind.args)}]"


def describe(kind: Type | None) -> str:
    """A value of this type, in a sentence: "an int", "a Tensor", "a List[int]", "None"."""
    if kind is None:
        return "a value of unknown type"
    if kind == NONE:
        return "None"
    text = spell(kind)
    return f"an {text}" if text[:1] in "aeiouAEIOU" and not text.startswith("Union") else f"a {text}"

"""The TorchScript type lattice against torch's own: `isSubtypeOf`, `unifyTypes` and the printer, pair by pair."""

import itertools

import pytest

from jitlint.targets.script.typing import types as T

torch = pytest.importorskip("torch")
C = torch._C

_SIMPLE = {
    "Tensor": C.TensorType.get, "int": C.IntType.get, "float": C.FloatType.get, "complex": C.ComplexType.get,
    "bool": C.BoolType.get, "str": C.StringType.get, "NoneType": C.NoneType.get, "Device": C.DeviceObjType.get,
    "number": C.NumberType.get, "Any": C.AnyType.get,
}


def to_torch(kind):
    if kind.name in _SIMPLE:
        return _SIMPLE[kind.name]()
    if kind.name == "List":
        return C.ListType(to_torch(kind.args[0]))
    if kind.name == "Tuple":
        return C.TupleType([to_torch(a) for a in kind.args])
    if kind.name == "Dict":
        return C.DictType(to_torch(kind.args[0]), to_torch(kind.args[1]))
    if kind.name == "Optional":
        return C.OptionalType(to_torch(kind.args[0]))
    if kind.name == "Union":
        return C.UnionType([to_torch(a) for a in kind.args])
    raise ValueError(kind)


BASE = [T.TENSOR, T.INT, T.FLOAT, T.BOOL, T.STR, T.NONE, T.NUMBER, T.ANY, T.DEVICE, T.COMPLEX]
MORE = [
    T.list_of(T.INT), T.list_of(T.FLOAT), T.list_of(T.TENSOR), T.list_of(T.optional_of(T.TENSOR)), T.list_of(T.NUMBER),
    T.tuple_of([T.INT, T.INT]), T.tuple_of([T.INT, T.FLOAT]), T.tuple_of([T.NUMBER, T.NUMBER]), T.tuple_of([T.INT]),
    T.tuple_of([T.TENSOR, T.NONE]), T.tuple_of([T.TENSOR, T.optional_of(T.TENSOR)]), T.dict_of(T.STR, T.TENSOR),
    T.dict_of(T.STR, T.optional_of(T.TENSOR)), T.dict_of(T.INT, T.TENSOR), T.optional_of(T.TENSOR),
    T.optional_of(T.INT), T.optional_of(T.NUMBER), T.optional_of(T.list_of(T.INT)), T.union_of([T.INT, T.FLOAT]),
    T.union_of([T.INT, T.STR, T.NONE]), T.union_of([T.TENSOR, T.list_of(T.TENSOR)]),
    T.union_of([T.INT, T.tuple_of([T.INT, T.INT])]), T.union_of([T.INT, T.FLOAT, T.NONE]), T.optional_of(T.ANY),
]
PAIRS = list(itertools.product(BASE + MORE, repeat=2))


def _agrees(a, b) -> bool:
    if T.subtype(a, b) != to_torch(a).isSubtypeOf(to_torch(b)):
        return False
    try:
        expected = C.unify_type_list([to_torch(a), to_torch(b)])
    except RuntimeError:
        expected = None
    joined = T.join(a, b)
    if expected is None:
        return joined is False
    # The same type: torch may build an Optional of a Union, which its own relation does not equate with the Union
    # with None it is (`Optional[Union[float, int]]` is no subtype of `Union[float, int, NoneType]`).
    return joined not in (False, None) and to_torch(joined).isSubtypeOf(expected) and (
        expected.isSubtypeOf(to_torch(joined)) or expected.annotation_str.startswith("Optional[Union["))


def test_subtype_and_join_agree_with_torch():
    assert [f"{a} / {b}" for a, b in PAIRS if not _agrees(a, b)] == []


@pytest.mark.parametrize("kind", [k for k in BASE + MORE if k.name != "Union"], ids=str)
def test_printer_spells_types_as_torch_does(kind):
    assert T.spell(kind) == to_torch(kind).annotation_str


def test_unknown_parts_make_answers_unknown():
    assert T.subtype(None, T.INT) is None and T.subtype(T.list_of(None), T.list_of(T.INT)) is None
    assert T.subtype(T.list_of(None), T.TENSOR) is False  # a list is no Tensor, whatever its element
    assert T.join(T.INT, None) is None and T.join(T.tuple_of([T.INT]), T.tuple_of([T.INT, None])) is False


def test_conversions_are_the_frontends():
    assert T.assignable(T.TENSOR, T.INT) and T.assignable(T.BOOL, T.FLOAT) and T.assignable(T.STR, T.DEVICE)
    assert not T.assignable(T.INT, T.FLOAT) and not T.assignable(T.TENSOR, T.INT, conversions=False)
    assert T.assignable(T.tuple_of([T.INT, T.INT]), T.list_of(T.INT))  # a tuple of ints is converted to a list
    assert T.assignable(T.NONE, T.optional_of(T.TENSOR)) and not T.assignable(T.NONE, T.TENSOR)


def test_describe_says_a_value_of_the_type():
    assert T.describe(T.INT) == "an int" and T.describe(T.TENSOR) == "a Tensor" and T.describe(T.NONE) == "None"
    assert T.describe(T.optional_of(T.INT)) == "an Optional[int]" and T.describe(T.union_of([T.INT, T.STR])) == (
        "a Union[int, str]")

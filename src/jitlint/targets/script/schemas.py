"""Operator schemas as data: what TorchScript resolves a call against, read from `jitlint/data/schemas.json`.

The data is extracted from torch by `scripts/extract_schemas.py` (the pinned torch's `aten::`/`prim::` schemas, the
frontend's builtin functions, the callables `torch.jit._builtins` maps to operators, the `torch.nn.functional`
functions TorchScript compiles from source, the `forward` signatures of `torch.nn` modules); this module only reads
it, never torch. Matching a call against these overloads is `typing.calls`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from jitlint.targets.script.typing.types import (
    ANY, ANY_CLASS, ANY_ENUM, ANY_LIST, ANY_TUPLE, BOOL, COMPLEX, DEVICE, FLOAT, GENERATOR, INT, NONE, NUMBER, STR,
    STREAM, TENSOR, Type, dict_of, future_of, list_of, optional_of, tuple_of, union_of, var,
)

_DATA = Path(__file__).resolve().parents[2] / "data" / "schemas.json"


# -- schema types --------------------------------------------------------------------------------------------------
_SCHEMA_SIMPLE = {
    "Tensor": TENSOR, "int": INT, "float": FLOAT, "complex": COMPLEX, "bool": BOOL, "str": STR, "number": NUMBER,
    "NoneType": NONE, "None": NONE, "Device": DEVICE, "Any": ANY, "Generator": GENERATOR, "Stream": STREAM,
    "AnyEnumType": ANY_ENUM, "AnyClassType": ANY_CLASS, "AnyListType": ANY_LIST, "AnyTupleType": ANY_TUPLE,
    "QScheme": INT, "Layout": INT, "MemoryFormat": INT, "ScalarType": INT,
}
_VARIABLES = frozenset({"t", "t1", "t2", "tVal", "tKey"})


def _split(text: str) -> list[str]:
    """`A, B[C, D], E` -> ["A", "B[C, D]", "E"]."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:index].strip())
            start = index + 1
    tail = text[start:].strip()
    if tail:
        parts.append(tail)
    return parts


@lru_cache(maxsize=None)
def schema_type(text: str) -> Type | None:
    """A type as a schema spells it (`Optional[List[int]]`, `Dict[str, t]`) as a Type; None for one this model
    does not follow (a custom class, a Storage, an RRef): it accepts anything."""
    text = text.strip()
    if text in _SCHEMA_SIMPLE:
        return _SCHEMA_SIMPLE[text]
    if text in _VARIABLES:
        return var(text)
    if "[" in text and text.endswith("]"):
        outer, inner = text.split("[", 1)
        args = [schema_type(part) for part in _split(inner[:-1])]
        if outer == "List" and len(args) == 1:
            return list_of(args[0])
        if outer == "Optional" and len(args) == 1 and args[0] is not None:
            return optional_of(args[0])
        if outer == "Tuple":
            return tuple_of(args)
        if outer == "Dict" and len(args) == 2:
            return dict_of(args[0], args[1])
        if outer == "Union" and None not in args:
            return union_of(args)
        if outer == "Future" and len(args) == 1:
            return future_of(args[0])
    return None


# -- the data ------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Param:
    name: str
    type: Type | None  # None: a type this model does not follow (it accepts anything)
    spelled: str  # as the data spells it
    n: int  # the fixed length of `int[2]`, else 0
    kwarg_only: bool
    default: str | None  # the default's text, None when there is none


@dataclass(frozen=True)
class Overload:
    operator: str  # `aten::add`, `prim::min`, or `py::<qualified name>` for a function compiled from Python
    overload: str
    params: tuple[Param, ...]
    returns: Type | None
    returns_spelled: str
    vararg: bool

    def signature(self) -> str:
        """The overload as torch spells it in its errors (`pad(Tensor input, int[] pad, ...) -> Tensor`)."""
        name = self.operator.removeprefix("py::").rsplit(".", 1)[-1] if self.operator.startswith("py::") else (
            self.operator + (f".{self.overload}" if self.overload else ""))
        parts, star = [], False
        for param in self.params:
            if param.kwarg_only and not star:
                parts.append("*")
                star = True
            default = f"={param.default}" if param.default is not None else ""
            parts.append(f"{_schema_spelling(param.spelled, param.n)} {param.name}{default}")
        return f"{name}({', '.join(parts)}) -> {self.returns_spelled}"


def _schema_spelling(spelled: str, n: int) -> str:
    """`Optional[List[int]]` as torch's error lists it: `int[]?` (`int[2]` for a fixed-size list)."""
    if spelled.startswith("Optional[") and spelled.endswith("]"):
        return _schema_spelling(spelled[9:-1], n) + "?"
    if spelled.startswith("List[") and spelled.endswith("]"):
        return _schema_spelling(spelled[5:-1], 0) + (f"[{n}]" if n else "[]")
    return {"number": "Scalar"}.get(spelled, spelled)


@lru_cache(maxsize=1)
def _data() -> dict:
    return json.loads(_DATA.read_text(encoding="utf-8"))


def torch_version() -> str:
    return _data()["torch"]


def operator_for(qualified: str) -> str | None:
    """The operator a callable's qualified name resolves to (`torch.ones` -> `aten::ones`), if TorchScript maps it
    to one (`torch.jit._builtins`), or the Python function TorchScript compiles (`py::torch.nn.functional.pad`)."""
    return _data()["calls"].get(qualified)


@lru_cache(maxsize=None)
def overloads(operator: str) -> tuple[Overload, ...]:
    entries = _data()["ops"].get(operator, ())
    return tuple(
        Overload(operator, name, tuple(_param(arg) for arg in args), _returns(returns, fields), returns,
                 bool(vararg))
        for name, args, returns, vararg, *fields in entries
    )


def _returns(spelled: str, fields: list) -> Type | None:
    """An overload's return type; a named tuple's fields (`torch.max(x, 1).values`) when the schema names them."""
    kind = schema_type(spelled)
    if fields and kind is not None and kind.name == "Tuple" and len(fields[0]) == len(kind.args):
        return tuple_of(kind.args, fields=tuple(fields[0]))
    return kind


def dispatch(operator: str) -> tuple[str, int, bool] | None:
    """For a function that dispatches on a bool argument (`F.max_pool2d(..., return_indices=...)`): the argument's
    name, position and default; its overloads are then the True half's and the False half's."""
    found = _data().get("dispatch", {}).get(operator)
    return (found[0], found[1], found[2]) if found else None


def _param(entry: list) -> Param:
    name, spelled, n, kwarg_only = entry[:4]
    return Param(name, schema_type(spelled), spelled, n, bool(kwarg_only), entry[4] if len(entry) > 4 else None)


def declared_overload(name: str, params: list[tuple[str, Type | None, bool, bool]],
                      returns: Type | None = None) -> Overload:
    """A signature declared in Python (a compiled function, an `@torch.jit._overload` declaration): (name, type,
    has a default, keyword-only) per parameter, `self` left out."""
    return Overload(f"py::{name}", "", tuple(
        Param(param, kind, str(kind) if kind is not None else "Any", 0, kwarg_only, "..." if default else None)
        for param, kind, default, kwarg_only in params
    ), returns, str(returns) if returns is not None else "Any", False)


@lru_cache(maxsize=None)
def module_forward(qualified: str) -> tuple[Overload, ...]:
    """The `forward` signatures of a `torch.nn` module class (`torch.nn.Linear`), as declared in torch."""
    entries = _data().get("modules", {}).get(qualified, ())
    return tuple(
        Overload(f"py::{qualified}.forward", name, tuple(_param(arg) for arg in args), schema_type(returns), returns,
                 bool(vararg))
        for name, args, returns, vararg, *_ in entries
    )


@lru_cache(maxsize=1)
def operator_names() -> frozenset[str]:
    return frozenset(name.split("::", 1)[1] for name in _data()["ops"])


def method_overloads(name: str) -> tuple[Overload, ...]:
    """The `aten::<name>` overloads that take a `self`: what `value.<name>(...)` resolves against."""
    return tuple(o for o in overloads(f"aten::{name}") if any(p.name == "self" for p in o.params))

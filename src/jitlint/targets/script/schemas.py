"""Operator schemas as data, and calls matched against them the way TorchScript's frontend matches them.

The data (`jitlint/data/schemas.json`) is extracted from torch by `scripts/extract_schemas.py`; this module only
reads it, never torch. A call in compiled code resolves to the overloads of one operator:

- `torch.<name>`, `torch.nn.functional.<name>`, `math.<name>`, ... through torch's builtin table (`calls`), or
  the TorchScript signatures of the `torch.nn.functional` functions TorchScript compiles from source;
- `x.<name>(...)` on a value known to be a Tensor: the `aten::<name>` overloads that take a `self`.

`match` follows `tryMatchSchema` (torch/csrc/jit/frontend/schema_matching.cpp): positional arguments fill the
parameters that are not keyword-only, in order; the last positional list parameter takes the remaining positional
arguments as its elements (`x.view(2, 3)`); keywords go by name (`input` also names an operator's `self`); missing
parameters need a default; then each value must be a subtype of its parameter's type after the implicit
conversions the frontend makes (a Tensor, a `number` or a bool to an int or a float; a str to a Device; an int
or a float to a fixed-size list like `int[2]`; None to an Optional). Lists are invariant (`List[int]` is no
`List[float]`). A value whose type is unknown matches anything, so a call is reported only when every overload
fails for a reason that is certain.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from jitlint.targets.script.infer import BOOL, FLOAT, INT, NONE, NUMBER, STR, TENSOR, TSType

_DATA = Path(__file__).resolve().parents[2] / "data" / "schemas.json"
Type = TSType | None  # None: unknown
MIXED = TSType("Union")  # the element type of a list literal whose elements have different types


@dataclass(frozen=True)
class Param:
    name: str
    type: TSType | None  # None: a type this matcher does not model (it accepts anything)
    spelled: str
    n: int
    kwarg_only: bool
    default: str | None  # the default's text, None when there is none


@dataclass(frozen=True)
class Overload:
    operator: str
    overload: str
    params: tuple[Param, ...]
    returns: str
    vararg: bool

    def signature(self) -> str:
        """The overload as torch spells it in its error ("pad(Tensor input, int[] pad, ...) -> Tensor")."""
        name = self.operator.removeprefix("py::").rsplit(".", 1)[-1] if self.operator.startswith("py::") else (
            self.operator + (f".{self.overload}" if self.overload else "")
        )
        parts, star = [], False
        for param in self.params:
            if param.kwarg_only and not star:
                parts.append("*")
                star = True
            default = f"={param.default}" if param.default is not None else ""
            parts.append(f"{_schema_spelling(param.spelled, param.n)} {param.name}{default}")
        return f"{name}({', '.join(parts)}) -> {self.returns}"


@dataclass(frozen=True)
class Argument:
    """One argument of a call: its keyword (None when positional) and its type (None when unknown)."""

    keyword: str | None
    type: Type


# -- the data -------------------------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def _data() -> dict:
    return json.loads(_DATA.read_text(encoding="utf-8"))


def torch_version() -> str:
    return _data()["torch"]


def operator_for(qualified: str) -> str | None:
    """The operator a callable's qualified name resolves to (`torch.ones` -> `aten::ones`), if TorchScript maps it."""
    return _data()["calls"].get(qualified)


@lru_cache(maxsize=None)
def overloads(operator: str) -> tuple[Overload, ...]:
    entries = _data()["ops"].get(operator, ())
    return tuple(
        Overload(operator, name, tuple(_param(arg) for arg in args), returns, bool(vararg))
        for name, args, returns, vararg in entries
    )


def _param(entry: list) -> Param:
    name, spelled, n, kwarg_only = entry[:4]
    return Param(name, parse_type(spelled), spelled, n, bool(kwarg_only), entry[4] if len(entry) > 4 else None)


_SIMPLE = {"Tensor": TENSOR, "int": INT, "float": FLOAT, "bool": BOOL, "str": STR, "number": NUMBER,
           "NoneType": NONE, "Device": TSType("Device"), "complex": TSType("complex")}


@lru_cache(maxsize=None)
def parse_type(text: str) -> TSType | None:
    """A schema type as TorchScript spells it (`Optional[List[int]]`) as a TSType; None for the types this matcher
    does not model (type variables, Any, Dict, Tuple, classes, Generator, ...): they accept any value."""
    text = text.strip()
    if text in _SIMPLE:
        return _SIMPLE[text]
    for outer in ("Optional", "List"):
        if text.startswith(outer + "[") and text.endswith("]"):
            inner = parse_type(text[len(outer) + 1:-1])
            return TSType(outer, (inner,)) if inner is not None else None
    return None


def _schema_spelling(spelled: str, n: int) -> str:
    """`Optional[List[int]]` as torch's error lists it: `int[]?` (`int[2]` for a fixed-size list)."""
    if spelled.startswith("Optional[") and spelled.endswith("]"):
        return _schema_spelling(spelled[9:-1], n) + "?"
    if spelled.startswith("List[") and spelled.endswith("]"):
        return _schema_spelling(spelled[5:-1], 0) + (f"[{n}]" if n else "[]")
    return {"number": "Scalar"}.get(spelled, spelled)


# -- matching -------------------------------------------------------------------------------------------------------
def accepts(value: Type, param: TSType | None, n: int = 0) -> bool:
    """Whether a value of type `value` can be passed for a parameter of type `param` (False only when certain)."""
    if value is None or param is None:
        return True
    if value.name == "Union" and value.args:
        return _union_accepts(value, param)
    if param.is_optional:
        if value == NONE:
            return True
        if value.is_optional:
            return value.inner == param.inner or None in (value.inner, param.inner) or not _modelled(value.inner)
        return accepts(value, param.inner, n)
    if value.is_optional:
        return True  # an Optional's refinement is followed elsewhere (JIT704); here it is unknown
    if value == NONE:
        return False
    if param.is_list:
        if value.is_list:
            element, wanted = value.element, param.element
            if element == MIXED:
                return False
            if wanted is None or wanted.is_optional or wanted.is_list or element.is_list:
                return True  # nested lists and lists of Optional: not modelled
            return element == wanted
        if n and value in (INT, FLOAT):
            return value == param.element  # `int[2]` takes one int
        return value not in (TENSOR, INT, FLOAT, BOOL, STR, NUMBER)
    if value.is_list:
        return param not in (TENSOR, INT, FLOAT, BOOL, STR, NUMBER)
    rules = _CONVERSIONS.get(value)
    if rules is None or param.name not in _KNOWN_PARAMS:
        return True
    return param.name in rules


_KNOWN_PARAMS = frozenset({"Tensor", "int", "float", "bool", "str", "number", "Device", "complex"})
# What each value type may be passed as, with the frontend's implicit conversions (verified on torch 2.13).
_CONVERSIONS: dict[TSType, frozenset[str]] = {
    TENSOR: frozenset({"Tensor", "int", "float", "number", "complex"}),
    INT: frozenset({"int", "number", "complex"}),
    FLOAT: frozenset({"float", "number", "complex"}),
    BOOL: frozenset({"bool", "int", "float", "number", "complex"}),
    STR: frozenset({"str", "Device"}),
    NUMBER: frozenset({"number", "int", "float", "complex"}),
}


def _union_accepts(value: TSType, param: TSType) -> bool:
    """A `Union[...]` value (a parameter annotated so, not refined) is passed as is: torch converts nothing, and
    takes it only where every member is a subtype of the parameter's type (`Union[int, float]` for a `number`).
    `Union[int, Tuple[int, int]]` for an `int[2]` fails: 'Expected a value of type 'List[int]' ... but instead
    found type 'Union[int, Tuple[int, int]]''. False only when a member certainly is not a subtype."""
    wanted = param.inner if param.is_optional else param
    if wanted is None:
        return True
    for member in value.args:
        if member is None or member == wanted or (param.is_optional and member == NONE):
            continue
        if wanted == NUMBER and member in (INT, FLOAT, NUMBER, TSType("complex")):
            continue
        if member.is_list and wanted.is_list:
            if member.element is None or wanted.element is None or member.element == wanted.element:
                continue
            return False
        if wanted.is_list or wanted.name in _KNOWN_PARAMS:
            if member.is_list or member.is_tuple or member in _CONVERSIONS or member == NONE:
                return False  # a member of another kind: not a subtype (an int is no `int[2]`, no float)
        # a type this check does not model: this member may be a subtype
    return True


def _modelled(kind: TSType) -> bool:
    return kind in _CONVERSIONS


def match(overload: Overload, args: list[Argument], self_type: Type = None, method: bool = False) -> str | None:
    """Why `overload` rejects these arguments (torch's wording), or None when it may accept them."""
    params = overload.params
    positional = [arg for arg in args if arg.keyword is None]
    keywords = [arg for arg in args if arg.keyword is not None]
    used_keywords: set[int] = set()
    used = 0
    self_pending = method
    is_aten = overload.operator.startswith("aten::")
    for index, param in enumerate(params):
        if param.name == "self" and self_pending:
            self_pending = False
            if not accepts(self_type, param.type, param.n):
                return _expected(param, self_type)
            continue
        if not param.kwarg_only and used < len(positional):
            first = positional[used].type
            if _varargs_list(params, index) and (len(positional) - used > 1 or (first is not None and not first.is_list)):
                # The remaining positional arguments become the list's elements (`x.view(2, 3)`). When the first
                # one's type is unknown it may be a list, and then the others are surplus: nothing is certain.
                if first is None:
                    return None
                for value in positional[used:]:
                    if not accepts(value.type, param.type.element):
                        return _expected(param, value.type)
                used = len(positional)
                continue
            value = positional[used].type
            used += 1
        else:
            found = [i for i, arg in enumerate(keywords) if arg.keyword == param.name or (
                is_aten and param.name == "self" and arg.keyword == "input")]
            if found:
                if found[0] in used_keywords:
                    return f"Argument {param.name} specified twice."
                used_keywords.add(found[0])
                value = keywords[found[0]].type
            elif param.default is not None:
                continue
            else:
                return f"Argument {param.name} not provided."
        if not accepts(value, param.type, param.n):
            return _expected(param, value)
    if self_pending:
        return "Provided self argument not used in schema."
    if used < len(positional) and not overload.vararg:
        return f"Expected at most {len(params)} arguments but found {len(positional) + len(keywords)} positional arguments."
    for i, arg in enumerate(keywords):
        if i not in used_keywords:
            if any(param.name == arg.keyword for param in params):
                return f"Argument {arg.keyword} specified twice."
            return f"Keyword argument {arg.keyword} unknown."
    return None


def _varargs_list(params: tuple[Param, ...], index: int) -> bool:
    """`varargsCanBeUsedAsList`: the last parameter that is not keyword-only, a list of no fixed size whose
    element is not a type variable, takes the remaining positional arguments."""
    param = params[index]
    last = index + 1 == len(params) or params[index + 1].kwarg_only
    kind = param.type.inner if param.type is not None and param.type.is_optional else param.type
    if not last or param.n or kind is None or not kind.is_list:
        return False
    return param.type is not None and not param.type.is_optional and kind.element is not None


def _expected(param: Param, value: Type) -> str:
    return f"Expected a value of type '{param.spelled}' for argument '{param.name}' but instead found type '{_spell(value)}'."


def _spell(kind: Type) -> str:
    if kind == MIXED:
        return "Union"
    if kind is not None and kind.is_list and kind.element == MIXED:
        return "List[Union[...]]"
    return str(kind)


@dataclass(frozen=True)
class Mismatch:
    """A call no overload accepts: each candidate and why it rejects the call."""

    operator: str
    reasons: tuple[tuple[Overload, str], ...]


def declared_overload(name: str, params: list[tuple[str, Type, bool, bool]]) -> Overload:
    """A signature declared in Python (an `@torch.jit._overload` declaration): (name, type, has a default,
    keyword-only) per parameter, `self` left out."""
    return Overload(f"py::{name}", "", tuple(
        Param(param, kind, str(kind) if kind is not None else "Any", 0, kwarg_only, "..." if default else None)
        for param, kind, default, kwarg_only in params
    ), "Any", False)


def check_call(
    operator: str, args: list[Argument], self_type: Type = None, method: bool = False,
    candidates: tuple[Overload, ...] | None = None,
) -> Mismatch | None:
    """A Mismatch when no overload of `operator` (or of `candidates`) accepts the arguments; None when one may, or
    nothing is known."""
    candidates = overloads(operator) if candidates is None else candidates
    if method:
        candidates = tuple(o for o in candidates if any(p.name == "self" for p in o.params))
    if not candidates:
        return None
    reasons = []
    for overload in candidates:
        reason = match(overload, args, self_type, method)
        if reason is None:
            return None
        reasons.append((overload, reason))
    return Mismatch(operator, tuple(reasons))


# -- names ----------------------------------------------------------------------------------------------------------
# Tensor methods TorchScript resolves without an operator of their name (verified on torch 2.13: `x.float()` scripts,
# `x.bool()` and `x.bfloat16()` do not).
_CAST_METHODS = frozenset("byte cdouble cfloat char double float half int long short".split())
# Operators with a Tensor `self` that TorchScript reads as properties of a Tensor, not methods (`return x.real`
# scripts; `return x.sum` is 'builtin cannot be used as a value'). Verified over every such operator on torch 2.13.
_PROPERTY_OPERATORS = frozenset("data imag is_leaf mH mT real retains_grad".split())


@lru_cache(maxsize=1)
def _operator_names() -> frozenset[str]:
    return frozenset(name.split("::", 1)[1] for name in _data()["ops"])


@lru_cache(maxsize=1)
def _tensor_method_operators() -> frozenset[str]:
    return frozenset(
        name.split("::", 1)[1] for name, entries in _data()["ops"].items()
        if name.startswith("aten::") and any(
            any(param[0] == "self" and param[1] == "Tensor" for param in args) for _, args, _, _ in entries
        )
    )


def list_method_exists(name: str, element: Type) -> bool:
    """Whether `xs.<name>(...)` on a list of `element` (None: unknown) can resolve. TorchScript looks a method of a
    value that is not a Tensor or a class up as the `aten::<name>` operators with a `self` argument the value's type
    matches (`BuiltinFunction::tryCreate`): for a list, a `self` of `List[t]` or of `List[<element>]`. False means
    torch says the list 'has no attribute or method'."""
    for _, args, _, _ in _data()["ops"].get(f"aten::{name}", ()):
        for param in args:
            if param[0] != "self":
                continue
            spelled = param[1]
            if spelled.startswith("Optional[") and spelled.endswith("]"):
                spelled = spelled[9:-1]
            if not (spelled.startswith("List[") and spelled.endswith("]")):
                continue
            inner = spelled[5:-1]
            if element is None or inner == str(element) or parse_type(inner) is None:
                return True  # a type variable, or an element type this check does not model: it may match
    return False


def tensor_method_exists(name: str) -> bool:
    """Whether `x.<name>(...)` on a Tensor can resolve: an operator of that name (in any namespace: a superset of
    what TorchScript looks up), or a dtype cast. False means torch says the Tensor 'has no attribute or method'."""
    return name in _CAST_METHODS or name in _operator_names()


def is_tensor_method_value(name: str) -> bool:
    """Whether `x.<name>`, not called, is a Tensor method used as a value ('builtin cannot be used as a value')."""
    return name in _tensor_method_operators() and name not in _PROPERTY_OPERATORS

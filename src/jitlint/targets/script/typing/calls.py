"""Call matching: a call's arguments against the schemas of what it calls, the way the frontend matches them, and the
type of what the call returns.

The specification is `schema_matching.cpp` (`matchSchemas`, `tryMatchSchema`, `tryMatchArgument`,
`matchTypeVariables`, `tryEvalTypeVariables`):

- several overloads are tried in order, first with no implicit conversion, then with them (one overload alone is
  tried once, with them); the first that matches is the one torch calls, and the call's type is its return type
  (type variables replaced by what the arguments bound them to);
- a parameter named `self` takes the receiver of a method call; positional arguments fill the parameters that are
  not keyword-only, in order; with conversions, the last of those, a list of no fixed size whose element is not a
  type variable, takes the remaining positional arguments as its elements (`x.view(2, 3)`), unless the first is a
  list already; keywords go by name (`input` also names an operator's `self`); a missing parameter needs a
  default;
- one argument: an int (a float) where a fixed-size `int[N]` (`float[N]`) is wanted becomes a list of N; type
  variables are bound (a second binding must join the first); the value is converted (`types.convert`) and must
  then be a subtype of the parameter's type; an empty list literal is a list of any element type.

What jitlint does not know (an argument's type, a schema type it does not model) matches anything; an overload is
rejected only when something certain rejects it, and the result type is known only when the overload torch picks
is. Rejections are data (`Rejection`): the rules that report them word them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from jitlint.targets.script.schemas import Overload, Param, method_overloads
from jitlint.targets.script.typing.types import (
    FLOAT, INT, NONE, Maybe, Type, assignable, convert, convertible_to_list, join, list_of, optional_of, subtype,
    union_of,
)

# -- the matching --------------------------------------------------------------------------------------------------
def has_method(name: str, receiver: Type | None) -> Maybe:
    """`BuiltinFunction::tryCreate`: whether `receiver.<name>` is a builtin method, some `aten::<name>` overload
    having a `self` whose type (type variables bound by the receiver) the receiver is a subtype of."""
    answer: Maybe = False
    for overload in method_overloads(name):
        param = next(p for p in overload.params if p.name == "self")
        if param.type is None or receiver is None:
            answer = None
            continue
        env = TypeEnv()
        ok, _bound = _match_variables(param.type, receiver, env)
        if ok is False:
            continue
        evaluated, concrete = evaluate(param.type, env)
        if not evaluated:
            continue
        fits = subtype(receiver, concrete) if concrete is not None else None
        if fits is True and ok is True:
            return True
        if fits is not False:
            answer = None
    return answer


@dataclass(frozen=True)
class Arg:
    """One argument of a call: its keyword (None when positional), its type (None: unknown), and whether it is an
    empty list literal (`[]`, which matches a list of any element type)."""

    keyword: str | None
    type: Type | None
    empty_list: bool = False
    node: object = field(default=None, compare=False)  # the argument's expression, for what reports a rejection


RejectionKind = Literal["type", "missing", "unknown-keyword", "twice", "too-many", "self-unused", "type-variable"]


@dataclass(frozen=True)
class Rejection:
    """Why an overload rejects a call, as torch's failure message says it: a value of type `value` for parameter
    `param` ("type"; "type-variable" when it contradicts an earlier binding `bound`), a parameter not given
    ("missing"), a keyword no parameter has ("unknown-keyword") or given twice ("twice"), more positional arguments
    than parameters ("too-many": `given` of them), a receiver the schema has no `self` for ("self-unused")."""

    kind: RejectionKind
    param: Param | None = None
    value: Type | None = None
    keyword: str | None = None
    given: int = 0
    bound: Type | None = None
    argument: int | None = None  # the index of the argument (in the call's list; -1: the receiver) it rejects


Status = Literal["match", "maybe", "no"]


@dataclass(frozen=True)
class Outcome:
    status: Status
    returns: Type | None = None  # with type variables bound (None: unknown)
    rejection: Rejection | None = None


class TypeEnv:
    """Type variable bindings (`TypeEnv`), with unknown bindings."""

    def __init__(self) -> None:
        self.bound: dict[str, Type | None] = {}


def _match_variables(formal: Type | None, actual: Type | None, env: TypeEnv) -> tuple[Maybe, Type | None]:
    """`matchTypeVariables`: bind the type variables of `formal` to the parts of `actual`. (False, previous
    binding) when a variable is bound twice to types that do not join."""
    if formal is None or not _has_variables(formal):
        return True, None
    if formal.name == "Var":
        name = formal.qualname
        if name not in env.bound:
            env.bound[name] = actual
            return True, None
        previous = env.bound[name]
        if previous is None or actual is None:
            return None, None
        # the first binding stays (torch only checks that the two unify): the value is then checked against it
        unified = join(previous, actual)
        if unified is False:
            return False, previous
        return (True if unified is not None else None), None
    if actual is None:
        for part in _variables(formal):
            env.bound.setdefault(part, None)
        return None, None
    if formal.name == "List":
        if actual.name == "List":
            return _match_variables(formal.args[0], actual.args[0], env)
        if actual.name == "Tuple":
            element = join_tuple(actual)
            if element is False:
                return False, None
            return _match_variables(formal.args[0], element, env)
        return False, None
    if formal.name == "Tuple":
        if actual.name != "Tuple" or len(actual.args) != len(formal.args):
            return False, None
        result: Maybe = True
        for f, a in zip(formal.args, actual.args):
            ok, bound = _match_variables(f, a, env)
            if ok is False:
                return False, bound
            if ok is None:
                result = None
        return result, None
    if formal.name == "Optional":
        if actual.name == "Optional":
            return _match_variables(formal.args[0], actual.args[0], env)
        if actual == NONE:
            return True, None  # None binds nothing
        return _match_variables(formal.args[0], actual, env)
    if formal.name == "Dict":
        if actual.name != "Dict":
            return False, None
        ok, bound = _match_variables(formal.args[0], actual.args[0], env)
        if ok is False:
            return False, bound
        ok2, bound2 = _match_variables(formal.args[1], actual.args[1], env)
        if ok2 is False:
            return False, bound2
        return (None if None in (ok, ok2) else True), None
    if formal.name == "Future":
        return _match_variables(formal.args[0], actual.args[0], env) if actual.name == "Future" else (False, None)
    return None, None


def join_tuple(actual: Type) -> Type | None | Literal[False]:
    from jitlint.targets.script.typing.types import join_all

    return join_all(actual.args)


def _has_variables(kind: Type | None) -> bool:
    return kind is not None and (kind.name == "Var" or any(_has_variables(arg) for arg in kind.args))


def _variables(kind: Type | None) -> list[str]:
    if kind is None:
        return []
    if kind.name == "Var":
        return [kind.qualname]
    return [name for arg in kind.args for name in _variables(arg)]


def evaluate(kind: Type | None, env: TypeEnv) -> tuple[bool, Type | None]:
    """`tryEvalTypeVariables`: `kind` with its variables replaced; (False, None) when one is not bound."""
    if kind is None:
        return True, None
    if kind.name == "Var":
        if kind.qualname not in env.bound:
            return False, None
        return True, env.bound[kind.qualname]
    if not _has_variables(kind):
        return True, kind
    args = []
    for arg in kind.args:
        ok, value = evaluate(arg, env)
        if not ok:
            return False, None
        args.append(value)
    if kind.name == "Optional":
        return True, optional_of(args[0]) if args[0] is not None else None
    if kind.name == "Union":
        return True, union_of(args)
    return True, Type(kind.name, tuple(args), kind.qualname, kind.fields)


def _int_or_float_as_list(value: Type | None, param: Param) -> bool:
    """`isIntOrFloatUsedAsList`: an int for an `int[N]` (a float for a `float[N]`)."""
    if value not in (INT, FLOAT) or not param.n or param.type is None:
        return False
    kind = param.type.args[0] if param.type.name == "Optional" else param.type
    return kind is not None and kind.name == "List" and kind.args[0] == value


def _varargs_list(params: tuple[Param, ...], index: int) -> bool:
    """`varargsCanBeUsedAsList`: the last parameter that is not keyword-only, a list (not an Optional one) of no
    fixed size whose element is not a type variable, takes the remaining positional arguments."""
    param = params[index]
    last = index + 1 == len(params) or params[index + 1].kwarg_only
    kind = param.type
    return (last and kind is not None and kind.name == "List" and not param.n
            and not (kind.args[0] is not None and kind.args[0].name == "Var"))


def match_argument(param: Param, value: Type | None, env: TypeEnv, conversions: bool,
                   empty_list: bool = False) -> tuple[Maybe, Rejection | None]:
    """`tryMatchArgument`: one value against one parameter."""
    if param.type is None:
        return None, None
    if _int_or_float_as_list(value, param):
        value = list_of(value)
    ok, bound = _match_variables(param.type, value, env)
    if ok is False:
        return False, Rejection("type-variable" if bound is not None else "type", param, value, bound=bound)
    evaluated, concrete = evaluate(param.type, env)
    if not evaluated:
        return False, Rejection("type", param, value)
    if concrete is None:
        return None, None
    if empty_list:
        target = concrete.args[0] if concrete.name == "Optional" else concrete
        if target is not None and target.name == "List":
            return True, None
    fits = assignable(value, concrete, conversions)
    if fits is False:
        return False, Rejection("type", param, value)
    return (None if ok is None else fits), None


def match(overload: Overload, args: list[Arg], receiver: Type | None | Literal[False] = False,
          conversions: bool = True) -> Outcome:
    """`tryMatchSchema`: whether `overload` accepts these arguments (and `receiver`, for a method call: False when
    there is none), and what it returns then."""
    params = overload.params
    positional = [arg for arg in args if arg.keyword is None]
    keywords = [arg for arg in args if arg.keyword is not None]
    used_keywords: set[int] = set()
    used = 0
    pending_self = receiver is not False
    is_aten = overload.operator.startswith("aten::")
    env = TypeEnv()
    certain = True
    for index, param in enumerate(params):
        if param.name == "self" and pending_self:
            pending_self = False
            ok, rejection = match_argument(param, receiver, env, conversions)  # type: ignore[arg-type]
            index_of = -1
        elif not param.kwarg_only and used < len(positional):
            first = positional[used]
            if conversions and _varargs_list(params, index):
                if first.type is None:
                    # a list, or the first of several elements: either way the elements' types decide
                    certain = False
                    if len(positional) - used > 1:
                        element = param.type.args[0]
                        element_param = Param("<varargs>", element, param.spelled, 0, False, None)
                        for value in positional[used + 1:]:
                            ok, rejection = match_argument(element_param, value.type, env, True)
                            if ok is False:
                                # it may still be a list followed by surplus arguments: rejected either way
                                return Outcome("no", rejection=replace(rejection, argument=args.index(value))
                                               if rejection is not None else None)
                        used = len(positional)
                        continue
                # varargs (`x.view(a, b)`) unless the first argument is a list, or a tuple that may become one
                # (`x.view((a, b))`; with elements of unknown types, whether it does is unknown)
                elif first.type.name != "List" and convertible_to_list(first.type, param.type) is False \
                        and not first.empty_list:
                    element = param.type.args[0]
                    element_param = Param("<varargs>", element, param.spelled, 0, False, None)
                    for value in positional[used:]:
                        ok, rejection = match_argument(element_param, value.type, env, True)
                        if ok is False:
                            return Outcome("no", rejection=Rejection("type", param, value.type,
                                                                     argument=args.index(value)))
                        if ok is None:
                            certain = False
                    used = len(positional)
                    continue
            used += 1
            index_of = args.index(first)
            ok, rejection = match_argument(param, first.type, env, conversions, first.empty_list)
        else:
            found = [i for i, arg in enumerate(keywords)
                     if arg.keyword == param.name or (is_aten and param.name == "self" and arg.keyword == "input")]
            if found:
                used_keywords.add(found[0])
                value = keywords[found[0]]
                index_of = args.index(value)
                ok, rejection = match_argument(param, value.type, env, conversions, value.empty_list)
            elif param.default is not None:
                continue
            else:
                return Outcome("no", rejection=Rejection("missing", param))
        if ok is False:
            if rejection is not None:
                rejection = replace(rejection, argument=index_of)
            return Outcome("no", rejection=rejection)
        if ok is None:
            certain = False
    if pending_self:
        return Outcome("no", rejection=Rejection("self-unused"))
    if used < len(positional) and not overload.vararg:
        return Outcome("no", rejection=Rejection("too-many", given=len(positional)))
    for index, arg in enumerate(keywords):
        if index not in used_keywords:
            twice = any(param.name == arg.keyword for param in params)
            return Outcome("no", rejection=Rejection("twice" if twice else "unknown-keyword", keyword=arg.keyword))
    ok, returns = evaluate(overload.returns, env)
    return Outcome("match" if certain else "maybe", returns if ok else None)


@dataclass(frozen=True)
class CallMatch:
    """What matching a call against its overloads found: "match" (torch certainly accepts it: `returns` is the
    result type, None when it depends on which of several possible overloads torch picks), "maybe" (it may),
    "no" (no overload accepts it: `rejections` says why, per overload, from the pass with conversions)."""

    status: Status
    returns: Type | None
    rejections: tuple[tuple[Overload, Rejection], ...] = field(default=())
    chosen: Overload | None = None


def match_overloads(candidates: tuple[Overload, ...], args: list[Arg],
                    receiver: Type | None | Literal[False] = False) -> CallMatch:
    """`matchSchemas`: try each overload in order without conversions, then with them; the first match wins."""
    if not candidates:
        return CallMatch("maybe", None)
    passes = (True,) if len(candidates) == 1 else (False, True)
    possible: list[tuple[Overload, Outcome]] = []  # overloads that may be the one chosen, in the order tried
    rejections: list[tuple[Overload, Rejection]] = []
    for conversions in passes:
        rejections = []
        for overload in candidates:
            outcome = match(overload, args, receiver, conversions)
            if outcome.status == "no":
                rejections.append((overload, outcome.rejection))
                continue
            possible.append((overload, outcome))
            if outcome.status == "match":
                return _chosen(possible, certain=True)
    if possible:
        return _chosen(possible, certain=False)
    return CallMatch("no", None, tuple(rejections))


def _chosen(possible: list[tuple[Overload, Outcome]], certain: bool) -> CallMatch:
    results = {outcome.returns for _, outcome in possible}
    returns = results.pop() if len(results) == 1 else None
    chosen = possible[0][0] if len(possible) == 1 else None
    return CallMatch("match" if certain else "maybe", returns, (), chosen)


def converted(value: Type | None, param: Type | None) -> Type | None:
    """The type a value is passed as (for a caller that needs it after matching)."""
    return convert(value, param)


def accepts(value: Type | None, param: Type | None) -> Maybe:
    """Whether a value of type `value` may be passed for a parameter of type `param` (with conversions)."""
    return subtype(convert(value, param), param)

"""Signature facts: which parameter of a function each argument of a call binds, as Python binds it.

`passed_to(function, call, bound)` maps the parameters a call's arguments certainly reach to the index of the
argument in `call.args`. Positional arguments fill the positional parameters in order (the first one skipped when
the call binds it: a method called on an object); a keyword argument names its parameter (a positional-only one
cannot be named; a name the function does not have goes to its `**kwargs`, not a parameter of its own). After a
`*xs` argument the positions are unknown (its length is a runtime value), so no later positional argument is
mapped; keywords still are. `**d` names no parameter the source shows.
"""

from __future__ import annotations

import libcst as cst

__all__ = ["passed_to"]


def passed_to(function: cst.FunctionDef, call: cst.Call, bound: bool = False) -> dict[str, int]:
    """{parameter name: index in `call.args` of the argument bound to it} for the arguments whose parameter the
    source decides."""
    params = function.params
    positional = [*params.posonly_params, *params.params][1 if bound else 0:]
    by_keyword = {param.name.value for param in (*params.params, *params.kwonly_params)}
    if bound and params.params and not params.posonly_params:
        by_keyword.discard(params.params[0].name.value)
    passed: dict[str, int] = {}
    position: int | None = 0  # None once a `*xs` has made the positions unknown
    for index, arg in enumerate(call.args):
        if arg.star == "*":
            position = None
        elif arg.star == "**":
            continue
        elif arg.keyword is not None:
            if arg.keyword.value in by_keyword:
                passed[arg.keyword.value] = index
        elif position is not None:
            if position < len(positional):
                passed[positional[position].name.value] = index
            position += 1
    return passed

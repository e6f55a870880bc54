"""The script strategy's child side for a module class no instance of which could be built (it needs constructor
arguments nothing gave): what torch says of every instance of it. Loaded by `confirm_child.py` by its path; the
standard library and torch only."""

from __future__ import annotations

import inspect
import linecache
import warnings


def prepare_refusal(cls, ctx) -> dict:
    """A module class that needs constructor arguments: torch.jit.script calls an instance's
    `__prepare_scriptable__` before anything else, and one whose own `raise` statement fires on an instance nothing
    was given to (a class-level refusal, as torchvision's v2 transforms make) refuses every instance: observed with
    no line, as scripting any instance would fail. Any other failure there (reading state the instance lacks,
    building another module from it) says nothing."""
    torch = ctx.torch
    prepare = getattr(cls, "__prepare_scriptable__", None)
    code = getattr(inspect.unwrap(prepare), "__code__", None) if prepare is not None else None
    if code is None or not issubclass(cls, torch.nn.Module):
        return {"observations": []}
    instance = cls.__new__(cls)
    try:
        torch.nn.Module.__init__(instance)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            instance.__prepare_scriptable__()
    except Exception as error:
        innermost = error.__traceback__
        while innermost.tb_next is not None:
            innermost = innermost.tb_next
        raised_there = innermost.tb_frame.f_code is code and linecache.getline(
            code.co_filename, innermost.tb_lineno).strip().startswith("raise")
        if isinstance(error, AttributeError) or not raised_there:
            return {"observations": []}
        message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        return {"observations": [{"message": message, "text": str(error)[:4000], "file": None, "line": None,
                                  "function": None, "kind": type(error).__name__, "artifact": False,
                                  "unbuilt": True}]}
    return {"observations": []}


def run_unbuilt(cls, ctx, enter) -> dict:
    """A module class no instance of which could be built: what torch says of every instance (`prepare_refusal`),
    and the units of it torch compiles without an instance (a free function, a staticmethod, a TorchScript class:
    `ctx.options["units"]` but the methods), scripted on their own by the checker `enter()` returns."""
    result = prepare_refusal(cls, ctx)
    if ctx.options.get("units"):  # a method needs an instance: found not there, unless it is a staticmethod
        checker = enter()
        result["units"] = checker.script_units(None, ctx.options["units"], ctx)
        for outcome in result["units"]:
            # seen with no instance of the class: confirms only what is at its own line
            result["observations"].extend({**error, "unbuilt": True} for error in outcome.pop("observations"))
    return result

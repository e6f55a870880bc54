"""The child side of the trace confirmer: trace one built module with its example inputs and compare it with eager.

Runs in the user's interpreter (standard library and torch only; it imports nothing of jitlint). The host calls
`run(module, inputs, ctx)` with the module built in eval mode, its declared example inputs (`inputs.args`, and
keyword arguments in `inputs.kwargs` when the inputs function returned {"args": ..., "kwargs": ...}) and a context
(`ctx.torch`, `ctx.options`, `ctx.is_user_file`, `ctx.example_inputs()` for another set). It:

- keeps a deep copy as the eager reference, then traces with `check_trace=False` and `strict` as configured, with
  every TracerWarning recorded, torch's default filter removed: each is observed at the innermost line of the
  user's files on the stack when it was issued (a warning raised inside torch names torch's file; the user's line
  is where the model called into torch), with whether that filter hides it;
- calls eager and traced on the example and on the second set (`options["compare"]`, a "module:function" for this
  root, or the inputs function called again), and observes a difference ("mismatch") or an error of the traced
  module where eager runs ("breaks", at the user lines of TorchScript's traceback);
- for a difference, traces again with `check_inputs=[second set]`: the nodes that differ between the two graphs
  carry the user lines that were frozen ("diverges").

A trace error is observed with no line (torch names none); `passed` is whether torch.jit.trace succeeded.
"""

from __future__ import annotations

import copy
import importlib
import os
import re
import sys
import warnings

HIDDEN = re.compile(r"torch.(?!jit)")
_LINES = re.compile(r'(/[^\s"\'():]+\.py)"?(?:, line |:)(\d+)')


def _resolve(spec: str):
    module_name, _, attribute = spec.partition(":")
    value = importlib.import_module(module_name)
    for part in attribute.split("."):
        value = getattr(value, part)
    return value


def _split(value):
    """(args, kwargs) of what an inputs function returned."""
    if isinstance(value, dict) and ("args" in value or "kwargs" in value):
        return tuple(value.get("args", ())), dict(value.get("kwargs", {}))
    if not isinstance(value, (tuple, list)):
        value = (value,)
    return tuple(value), {}


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return f"{type(error).__name__}: {text.splitlines()[0][:300] if text else ''}"


def _user_lines(text: str, ctx) -> list[tuple[str, int]]:
    found = []
    for path, line in _LINES.findall(text):
        if ctx.is_user_file(path) and (os.path.realpath(path), int(line)) not in found:
            found.append((os.path.realpath(path), int(line)))
    return found


def _same(torch, eager, traced) -> str:
    """"" when the traced output equals eager's (structure, type, dtype, values), else what differs."""
    if isinstance(eager, dict):
        eager = tuple(eager.values())
        traced = tuple(traced.values()) if isinstance(traced, dict) else traced
    if isinstance(eager, torch.Tensor):
        if not isinstance(traced, torch.Tensor):
            return f"a {type(traced).__name__} instead of a Tensor"
        if eager.shape != traced.shape:
            return f"shape {tuple(eager.shape)} instead of {tuple(traced.shape)}"
        if eager.dtype != traced.dtype:
            return f"dtype {traced.dtype} instead of {eager.dtype}"
        if not torch.allclose(eager.double(), traced.double(), rtol=1e-4, atol=1e-5, equal_nan=True):
            return f"values differ (max abs diff {float((eager.double() - traced.double()).abs().max()):.3g})"
        return ""
    if isinstance(eager, (tuple, list)):
        if type(eager) is not type(traced):  # a NamedTuple comes back a tuple
            return f"a {type(traced).__name__} instead of a {type(eager).__name__}"
        if len(eager) != len(traced):
            return f"{len(traced)} outputs instead of {len(eager)}"
        for a, b in zip(eager, traced):
            found = _same(torch, a, b)
            if found:
                return found
        return ""
    return "" if type(eager) is type(traced) and eager == traced else (
        f"a {type(traced).__name__} instead of a {type(eager).__name__}")


class _Warnings:
    def __init__(self, torch, ctx) -> None:
        self.torch = torch
        self.ctx = ctx
        self.observations: list[dict] = []

    def hook(self, message, category, filename, lineno, file=None, line=None):
        if not issubclass(category, self.torch.jit.TracerWarning):
            return
        frame = sys._getframe(1)
        module, user = "", None
        while frame is not None:
            if frame.f_code.co_filename == filename and frame.f_lineno == lineno and not module:
                module = frame.f_globals.get("__name__", "")
            if user is None and self.ctx.is_user_file(frame.f_code.co_filename):
                user = (os.path.realpath(frame.f_code.co_filename), frame.f_lineno)
            frame = frame.f_back
        if user is None:
            return
        text = str(message).strip().splitlines()[0][:200]
        observation = {"file": user[0], "line": user[1], "message": text, "kind": "warning",
                       "hidden": bool(HIDDEN.match(module)), "issued_at": f"{filename}:{lineno}"}
        if observation not in self.observations:
            self.observations.append(observation)


def run(module, inputs, ctx):
    torch = ctx.torch
    options = ctx.options
    strict = bool(options.get("strict", True))
    args, kwargs = (tuple(inputs.args), dict(getattr(inputs, "kwargs", None) or {})) if inputs else ((), {})
    compare = (options.get("compare") or {}).get(ctx.name)
    try:
        second = _split(_resolve(compare)()) if compare else ctx.example_inputs()
        if not isinstance(second, tuple) or len(second) != 2 or not isinstance(second[1], dict):
            second = (tuple(second.args), dict(getattr(second, "kwargs", None) or {}))
    except Exception as error:
        return {"passed": False, "observations": [], "reason": f"the second inputs failed: {_first_line(error)}"}
    module.eval()
    eager = copy.deepcopy(module)
    log = _Warnings(torch, ctx)
    saved = warnings.showwarning
    with warnings.catch_warnings():
        warnings.resetwarnings()
        warnings.simplefilter("always")
        warnings.showwarning = log.hook
        try:
            traced_args = copy.deepcopy((args, kwargs))
            traced = torch.jit.trace(module, traced_args[0] or None, strict=strict, check_trace=False,
                                     example_kwarg_inputs=traced_args[1] or None)
        except Exception as error:
            observations = log.observations + [{"file": None, "line": None, "message": _first_line(error),
                                                "kind": "error"}]
            return {"passed": False, "observations": observations, "verdict": "rejects"}
        finally:
            warnings.showwarning = saved
    observations = list(log.observations)
    verdict = "accepts"
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")
        for label, (call_args, call_kwargs) in (("example", (args, kwargs)), ("second inputs", second)):
            try:
                expected = eager(*copy.deepcopy(call_args), **copy.deepcopy(call_kwargs))
            except Exception:
                continue  # eager rejects these inputs: nothing to compare
            try:
                got = traced(*copy.deepcopy(call_args), **copy.deepcopy(call_kwargs))
            except Exception as error:
                verdict = "breaks"
                lines = _user_lines(str(error), ctx) or [(None, None)]
                for file, line in lines:
                    observations.append({"file": file, "line": line, "kind": "breaks",
                                         "message": f"the traced module fails on the {label}: {_first_line(error)}"})
                break
            differs = _same(torch, expected, got)
            if differs:
                verdict = "changes"
                observations.append({"file": None, "line": None, "kind": "mismatch",
                                     "message": f"the traced module differs from eager on the {label}: {differs}"})
                break
    if verdict != "accepts":
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                torch.jit.trace(copy.deepcopy(eager), args or None, strict=strict, check_inputs=[second[0]],
                                example_kwarg_inputs=kwargs or None)
        except Exception as error:
            text = str(error)
            marker = text.find("First diverging operator")
            # the first node that differs between the two graphs, and where each trace recorded it
            for file, line in _user_lines(text[marker:] if marker >= 0 else "", ctx):
                observations.append({"file": file, "line": line, "kind": "diverges",
                                     "message": "the graph traced from the second inputs differs here"})
    return {"passed": True, "observations": observations, "verdict": verdict}

"""The child side of the jit.trace oracle (`oracles.trace.jit_trace_sources`): standard library and torch only.

`python jit_trace_child.py JOBS.json` prints a marker line and a JSON list of results, one per job, in order.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import re
import sys
import traceback
import warnings

MARKER = "@@RESULTS@@"
# torch's own filter (torch/jit/_trace.py): TracerWarnings issued from a module whose name matches are not shown.
HIDDEN = re.compile(r"torch.(?!jit)")


class WarningLog:
    """Every TracerWarning, with the stack it was issued from (the hook runs inside `warnings.warn`)."""

    def __init__(self, torch, path: str) -> None:
        self.torch = torch
        self.path = os.path.realpath(path)
        self.seen: list[dict] = []

    def hook(self, message, category, filename, lineno, file=None, line=None):
        if not issubclass(category, self.torch.jit.TracerWarning):
            return
        frame = sys._getframe(1)
        module = ""
        source_lines = []
        while frame is not None:
            if frame.f_code.co_filename == filename and frame.f_lineno == lineno and not module:
                module = frame.f_globals.get("__name__", "")
            if os.path.realpath(frame.f_code.co_filename) == self.path:
                source_lines.append(frame.f_lineno)
            frame = frame.f_back
        source_lines.reverse()  # outermost first, innermost last
        self.seen.append({"message": str(message).splitlines()[0][:200], "filename": filename, "line": lineno,
                          "module": module, "hidden": bool(HIDDEN.match(module)), "source_lines": source_lines})


def _args(value):
    if isinstance(value, dict) and ("args" in value or "kwargs" in value):
        return tuple(value.get("args", ())), dict(value.get("kwargs", {}))
    if not isinstance(value, (tuple, list)):
        value = (value,)
    return tuple(value), {}


def _describe(value):
    import torch

    if isinstance(value, torch.Tensor):
        return f"Tensor{tuple(value.shape)}:{value.dtype}"
    if isinstance(value, (tuple, list)):
        return f"{type(value).__name__}[{', '.join(_describe(v) for v in value)}]"
    if isinstance(value, dict):
        return f"{type(value).__name__}{{{', '.join(f'{k}: {_describe(v)}' for k, v in value.items())}}}"
    return type(value).__name__


def _same(eager, traced) -> str:
    """"" when `traced` equals `eager` (structure, Python type, dtype, values), else what differs."""
    import torch

    if type(eager) is not type(traced):
        return f"type {type(eager).__name__} vs {type(traced).__name__}"
    if isinstance(eager, torch.Tensor):
        if eager.shape != traced.shape:
            return f"shape {tuple(eager.shape)} vs {tuple(traced.shape)}"
        if eager.dtype != traced.dtype:
            return f"dtype {eager.dtype} vs {traced.dtype}"
        if eager.is_floating_point():
            ok = torch.allclose(eager, traced, rtol=1e-4, atol=1e-5, equal_nan=True)
        else:
            ok = torch.equal(eager, traced)
        return "" if ok else f"values differ (max abs diff {float((eager.double() - traced.double()).abs().max()):.3g})"
    if isinstance(eager, (tuple, list)):
        if len(eager) != len(traced):
            return f"length {len(eager)} vs {len(traced)}"
        for a, b in zip(eager, traced):
            found = _same(a, b)
            if found:
                return found
        return ""
    if isinstance(eager, dict):
        if list(eager) != list(traced):
            return "keys differ"
        for key in eager:
            found = _same(eager[key], traced[key])
            if found:
                return found
        return ""
    return "" if eager == traced else f"{eager!r} vs {traced!r}"


def run_job(spec: dict, counter: int) -> dict:
    import torch
    import torch.nn as nn

    path = spec["path"]
    real = os.path.realpath(path)
    name = f"_jitlint_jit_trace_oracle_{counter}"

    def failure(stage: str, error: BaseException, log=None) -> dict:
        lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__)
                 if os.path.realpath(frame.filename) == real]
        text = str(error).strip()
        return {"stage": stage, "verdict": "rejects" if stage == "trace" else "n/a", "error_type": type(error).__name__,
                "message": text.splitlines()[0] if text else type(error).__name__, "traceback_lines": lines,
                "warnings": log.seen if log else []}

    try:
        module_spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        module_spec.loader.exec_module(module)
    except BaseException as error:
        return failure("import", error)
    classes = [value for value in vars(module).values()
               if isinstance(value, type) and issubclass(value, nn.Module) and value.__module__ == name]
    if not classes:
        return {"stage": "build", "verdict": "n/a", "message": "the source defines no nn.Module"}
    try:
        torch.manual_seed(0)
        model = classes[-1]()
        model.train(spec.get("trace_mode", "eval") == "train")
        eager = copy.deepcopy(model)
    except BaseException as error:
        return failure("build", error)
    scope = {"torch": torch, **vars(module)}
    try:
        first = _args(eval(spec["inputs"], scope))
        second = _args(eval(spec.get("inputs2") or spec["inputs"], scope))
    except BaseException as error:
        return failure("inputs", error)
    log = WarningLog(torch, path)
    saved = warnings.showwarning
    with warnings.catch_warnings():
        warnings.resetwarnings()  # torch's own filter (and any other) removed: every TracerWarning is seen
        warnings.simplefilter("always")
        warnings.showwarning = log.hook
        try:
            torch.manual_seed(0)
            traced_args = copy.deepcopy(first)
            if traced_args[1]:
                traced = torch.jit.trace(model, traced_args[0] or None, strict=spec.get("strict", True),
                                         check_trace=False, example_kwarg_inputs=traced_args[1])
            else:
                traced = torch.jit.trace(model, traced_args[0], strict=spec.get("strict", True), check_trace=False)
        except BaseException as error:
            return failure("trace", error, log)
        finally:
            warnings.showwarning = saved
    run_mode = spec.get("run_mode") or spec.get("trace_mode", "eval")
    eager.train(run_mode == "train")
    traced.train(run_mode == "train")
    result = {"stage": None, "verdict": "accepts", "warnings": log.seen, "detail": ""}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for label, (args, kwargs) in (("example", first), ("second input", second)):
            try:
                torch.manual_seed(1)
                expected = eager(*copy.deepcopy(args), **copy.deepcopy(kwargs))
                eager_error = None
            except BaseException as error:
                expected, eager_error = None, error
            try:
                torch.manual_seed(1)
                got = traced(*copy.deepcopy(args), **copy.deepcopy(kwargs))
            except BaseException as error:
                if eager_error is None:
                    text = str(error).strip().splitlines()
                    result.update(verdict="breaks", error_type=type(error).__name__,
                                  detail=f"{label}: {type(error).__name__}: {text[0][:200] if text else ''}")
                    return result
                continue
            if eager_error is not None:
                result.update(verdict="changes", detail=f"{label}: eager raised {type(eager_error).__name__}, "
                                                        "the traced module did not")
                return result
            differs = _same(expected, got)
            if differs:
                result.update(verdict="changes", detail=f"{label}: {differs}")
                return result
    return result


def main() -> None:
    jobs = json.loads(open(sys.argv[1]).read())
    results = []
    import logging

    logging.disable(logging.CRITICAL)
    for counter, spec in enumerate(jobs):
        stdout, stderr = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = open(os.devnull, "w")
        try:
            results.append(run_job(spec, counter))
        finally:
            sys.stdout, sys.stderr = stdout, stderr
    sys.stdout.write("\n" + MARKER + json.dumps(results))


if __name__ == "__main__":
    main()

"""The trace confirmer's child process until the shared confirmer host runs it: import one linted file as part of
its package, build one module class, call its example-inputs function, and hand them to the strategy's child side
(`confirm_child.run(module, inputs, ctx)`), with the context the host gives (`torch`, `options`, `name`,
`is_user_file`, `example_inputs`). Standard library and torch only.

`python confirm_driver.py` reads a JSON job on stdin and writes a marker line and the JSON answer on stdout; what
the user's code prints goes to the log file the job names.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import inspect
import json
import os
import sys
from typing import NamedTuple

MARKER = "@@JITLINT-TRACE@@"


class Inputs(NamedTuple):
    args: tuple
    kwargs: dict


def _resolve(spec: str):
    module_name, _, attribute = spec.partition(":")
    value = importlib.import_module(module_name)
    for part in attribute.split("."):
        value = getattr(value, part)
    return value


def _inputs(value) -> Inputs:
    if isinstance(value, dict) and ("args" in value or "kwargs" in value):
        return Inputs(tuple(value.get("args", ())), dict(value.get("kwargs", {})))
    if not isinstance(value, (tuple, list)):
        value = (value,)
    return Inputs(tuple(value), {})


class Context:
    def __init__(self, torch, name: str, options: dict, user_roots: list[str], inputs: str | None) -> None:
        self.torch = torch
        self.name = name
        self.options = options
        self.user_roots = user_roots
        self.inputs = inputs

    def is_user_file(self, path: str) -> bool:
        real = os.path.realpath(path)
        return any(real.startswith(root + os.sep) for root in self.user_roots) and "site-packages" not in real

    def example_inputs(self, *args, **kwargs) -> Inputs:
        return _inputs(_resolve(self.inputs)(*args, **kwargs))


def _missing_arguments(cls) -> list[str]:
    try:
        signature = inspect.signature(cls.__init__)
    except (TypeError, ValueError):
        return []
    return [name for name, parameter in list(signature.parameters.items())[1:]
            if parameter.default is inspect.Parameter.empty
            and parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)]


def answer(job: dict) -> dict:
    sys.path.insert(0, job["root"])
    try:
        module = importlib.import_module(job["module"])
        cls = getattr(module, job["name"])
    except BaseException as error:
        return {"import_error": f"{type(error).__name__}: {error}"}
    result = {"built": False, "reason": "", "passed": False, "observations": []}
    try:
        if job.get("factory"):
            model = _resolve(job["factory"])()
        else:
            missing = _missing_arguments(cls)
            if missing:
                result["reason"] = f"needs constructor arguments: {', '.join(missing)}"
                return {"roots": {job["name"]: result}}
            model = cls()
        model.eval()
        result["built"] = True
        inputs = _inputs(_resolve(job["inputs"])())
    except BaseException as error:
        result["reason"] = f"building it or its inputs failed: {type(error).__name__}: {error}"
        return {"roots": {job["name"]: result}}
    import torch

    strategy_spec = importlib.util.spec_from_file_location("_jitlint_trace_strategy", job["strategy"])
    strategy = importlib.util.module_from_spec(strategy_spec)
    strategy_spec.loader.exec_module(strategy)
    ctx = Context(torch, job["name"], job["options"], job["user_roots"], job["inputs"])
    result.update(strategy.run(model, inputs, ctx))
    return {"roots": {job["name"]: result}}


def main() -> None:
    job = json.loads(sys.stdin.read())
    with open(job["log"], "a", encoding="utf-8") as log, contextlib.redirect_stdout(log), \
            contextlib.redirect_stderr(log):
        import logging

        logging.disable(logging.CRITICAL)
        result = answer(job)
    sys.stdout.write("\n" + MARKER + json.dumps(result))


if __name__ == "__main__":
    main()

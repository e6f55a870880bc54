"""The child side of the compile oracle (`oracles/compile.py`): import each job's source, build its last module
class, and observe torch.compile with the confirmer's own child side. Run as a script with the jobs' file."""

from __future__ import annotations

import json
import sys
from pathlib import Path

CHILD = Path(__file__).resolve().parents[2] / "src" / "jitlint" / "targets" / "compile" / "confirm_child.py"


def _run_job(spec: dict, counter: int, child) -> dict:
    import contextlib
    import importlib.util
    import io
    import os
    import warnings

    import torch
    import torch.nn as nn

    path = spec["path"]
    name = f"_jitlint_compile_oracle_{counter}"
    real = os.path.realpath(path)

    def failed(stage: str, error: BaseException) -> dict:
        return {"ok": False, "stage": stage, "message": f"{type(error).__name__}: {error}"[:2000]}

    try:
        module_spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[name] = module
        with contextlib.redirect_stdout(io.StringIO()):
            module_spec.loader.exec_module(module)
    except Exception as error:
        return failed("import", error)
    classes = [value for value in vars(module).values()
               if isinstance(value, type) and issubclass(value, nn.Module) and value.__module__ == name]
    try:
        if not classes:
            raise TypeError("no nn.Module class")
        torch.manual_seed(0)
        model = classes[-1]().eval()
    except Exception as error:
        return failed("build", error)
    try:
        torch.manual_seed(0)
        calls = [eval(spec.get("inputs") or "(torch.randn(4, 3),)", {"torch": torch, "i": index, **vars(module)})
                 for index in range(int(spec.get("calls", 2)))]
        calls = [call if isinstance(call, tuple) else (call,) for call in calls]
    except Exception as error:
        return failed("inputs", error)
    toggle = (lambda index, built: built.train(index % 2 == 0)) if spec.get("toggle") else None
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        seen = child.observe(
            torch, model, calls, fullgraph=bool(spec.get("fullgraph")), dynamic=spec.get("dynamic"),
            capture_scalar_outputs=bool(spec.get("capture_scalar_outputs")),
            capture_dynamic_output_shape_ops=bool(spec.get("capture_dynamic_output_shape_ops")),
            is_user_file=lambda file: os.path.realpath(file) == real, before_call=toggle)
    breaks = [{"lines": [line for _file, line in item["frames"]], "id": item["id"], "ids": item["ids"],
               "reason": item["reason"], "eager": item["eager"]} for item in seen["breaks"] if not item["repeat"]]
    recompiles = [{"lines": [line for _file, line in item["frames"]], "guard": item["guard"]}
                  for item in seen["recompiles"]]
    error = seen["error"]
    if error is not None:
        error = {"type": error["type"], "message": error["message"], "id": error["id"],
                 "lines": [line for _file, line in error["frames"]]}
    ok = not breaks and not recompiles and error is None
    return {"ok": ok, "graphs": seen["graphs"], "breaks": breaks, "recompiles": recompiles, "limit": seen["limit"],
            "error": error}


def _main(spec_path: str) -> None:
    import importlib.util

    module_spec = importlib.util.spec_from_file_location("_jitlint_compile_child", CHILD)
    child = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(child)
    specs = json.loads(Path(spec_path).read_text())
    results = [_run_job(spec, counter, child) for counter, spec in enumerate(specs)]
    sys.stdout.write("\n@@RESULTS@@" + json.dumps(results))


if __name__ == "__main__":
    _main(sys.argv[1])

"""The compile oracle: what `torch.compile` (TorchDynamo, backend "eager") of the pinned torch does with a source
file, in a child process (torch is never imported for it in the test process). Shaped like the oracles of
`tests/oracles/` (`run(source, tmp_path, **settings) -> Verdict`), with a batch entry for many sources.

Each job is a source, the Python expression of one call's arguments (evaluated with `torch`, the module's names and
`i`, the call's index, in scope: `(torch.randn(4, 3), f"mode{i}")`), the number of calls, the mode (`fullgraph`,
`capture_scalar_outputs`, `capture_dynamic_output_shape_ops`, `dynamic`) and whether to switch `.train()`/`.eval()`
between calls. The child imports the source as a fresh module, builds the *last* nn.Module class it defines
(no-argument constructor, `eval()`), and observes the compile with the confirmer's own child side
(`src/jitlint/targets/compile/confirm_child.py`, standard library and torch only). Stages: "import", "build",
"inputs" (the job's fault) or "compile" (torch.compile itself).
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

CHILD = Path(__file__).resolve().parents[1] / "src" / "jitlint" / "targets" / "compile" / "confirm_child.py"


@dataclass
class CompileVerdict:
    ok: bool  # no graph break, no recompile, no error
    stage: str | None = None  # None when the model was built and compiled; else "import", "build", "inputs"
    graphs: int = 0
    # Each once, in order: {"lines", "id", "ids" (every id the log names), "reason", "eager"}.
    breaks: list[dict] = field(default_factory=list)
    recompiles: list[dict] = field(default_factory=list)  # {"lines", "guard"}
    limit: str | None = None  # the recompile-limit warning, when it was hit
    error: dict | None = None  # {"type", "message", "lines", "id"}: what the compiled call raised
    message: str = ""  # for a failed stage: the exception

    @property
    def rejected(self) -> bool:
        """torch.compile raised (a `fullgraph=True` error)."""
        return self.error is not None

    @property
    def break_lines(self) -> set[int]:
        """The line of the source each graph break names (its innermost frame in the source)."""
        return {item["lines"][-1] for item in self.breaks if item["lines"]}

    @property
    def error_line(self) -> int | None:
        return self.error["lines"][-1] if self.error and self.error["lines"] else None

    @property
    def recompile_lines(self) -> set[int]:
        return {item["lines"][-1] for item in self.recompiles if item["lines"]}

    def describe(self) -> str:
        if self.stage is not None:
            return f"failed at {self.stage}: {self.message}"
        parts = [f"{self.graphs} graph(s)"]
        if self.breaks:
            parts.append("breaks " + ", ".join(f"L{item['lines'][-1] if item['lines'] else '?'} {item['id']}"
                                               f"{' (eager)' if item['eager'] else ''}: {item['reason'][:60]}"
                                               for item in self.breaks))
        if self.recompiles:
            parts.append(f"{len(self.recompiles)} recompile(s): " + "; ".join(
                f"L{item['lines'][-1] if item['lines'] else '?'} {item['guard'][:50]}" for item in self.recompiles[:3]))
        if self.limit:
            parts.append("recompile limit hit")
        if self.error:
            parts.append(f"raised at L{self.error_line}: {self.error['type']}: {self.error['message'][:100]}")
        return ", ".join(parts)

    __str__ = describe


def compile_sources(jobs: list[dict], directory: Path, timeout: float = 1800) -> list[CompileVerdict]:
    """Run each job (a dict: source, inputs, calls, fullgraph, capture_scalar_outputs,
    capture_dynamic_output_shape_ops, dynamic, toggle) in one child process; verdicts in the jobs' order."""
    directory.mkdir(parents=True, exist_ok=True)
    specs = []
    for index, job in enumerate(jobs):
        path = directory / f"example_{index}.py"
        path.write_text(job["source"])
        specs.append({**{key: value for key, value in job.items() if key != "source"}, "path": str(path)})
    spec_path = directory / "jobs.json"
    spec_path.write_text(json.dumps(specs))
    done = subprocess.run([sys.executable, __file__, str(spec_path)], capture_output=True, text=True, timeout=timeout)
    marker = "\n@@RESULTS@@"
    if marker not in done.stdout:
        raise RuntimeError(f"the compile oracle's child failed:\n{done.stderr[-3000:]}")
    return [CompileVerdict(**item) for item in json.loads(done.stdout.split(marker, 1)[1])]


def run(source: str, directory: Path, inputs: str = "(torch.randn(4, 3),)", calls: int = 2, **settings) -> CompileVerdict:
    """The verdict of torch.compile on the last module class of `source`, called `calls` times with `inputs`."""
    return compile_sources([{"source": source, "inputs": inputs, "calls": calls, **settings}], directory)[0]


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

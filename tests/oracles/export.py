"""The export oracle: what `torch.export.export` of the pinned torch says about a source file, run with example
inputs in a child process (torch is never imported for it in the test process).

Each job is a source, the Python expression of its example inputs (a tuple of positional arguments, or a dict with
"args" and "dynamic_shapes", evaluated with `torch` and the module's names in scope) and the mode (`strict`). The child imports the source as a fresh module,
builds the *last* nn.Module class it defines (no-argument constructor, `eval()`), and exports it. The result says
which stage failed, so that only torch.export itself counts as a rejection:

- "import": executing the module raised; "build": no module class, or its constructor raised; "inputs": the
  example inputs expression raised; "export": `torch.export.export` raised.

It carries the first line torch names in the example in its message (`line`), the example's lines in the
traceback (`traceback_lines`, innermost last), and the warnings export emitted.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

if __name__ == "__main__":  # the child runs this file as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from oracles import Verdict  # noqa: E402


@dataclass
class ExportResult(Verdict):
    tool_stage = "export"

    def describe(self) -> str:
        return "exported" if self.ok else super().describe()


def export_sources(jobs: list[tuple[str, str, bool]], directory: Path, timeout: float = 900) -> list[ExportResult]:
    """Export each (source, inputs, strict) job in one child process; results in the jobs' order."""
    directory.mkdir(parents=True, exist_ok=True)
    specs = []
    for index, (source, inputs, strict) in enumerate(jobs):
        path = directory / f"example_{index}.py"
        path.write_text(source)
        specs.append({"path": str(path), "inputs": inputs, "strict": strict})
    spec_path = directory / "jobs.json"
    spec_path.write_text(json.dumps(specs))
    done = subprocess.run([sys.executable, __file__, str(spec_path)], capture_output=True, text=True, timeout=timeout)
    marker = "\n@@RESULTS@@"
    if marker not in done.stdout:
        raise RuntimeError(f"the export oracle's child failed:\n{done.stderr[-3000:]}")
    return [ExportResult(**item) for item in json.loads(done.stdout.split(marker, 1)[1])]


def run(source: str, directory: Path, inputs: str = "(torch.randn(2, 3),)", strict: bool = False) -> ExportResult:
    """The verdict of torch.export.export on the last module class of `source`, called with `inputs`."""
    return export_sources([(source, inputs, strict)], directory)[0]


def _run_job(spec: dict, counter: int) -> dict:
    import importlib.util
    import traceback
    import warnings

    import torch
    import torch.nn as nn

    path = spec["path"]
    name = f"_jitlint_export_oracle_{counter}"

    def failure(stage: str, error: BaseException, caught: list) -> dict:
        text = str(error)
        match = re.search(rf'File "{re.escape(path)}", line (\d+)', text)
        lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__) if frame.filename == path]
        first = text.strip().splitlines()[0] if text.strip() else type(error).__name__
        return {"ok": False, "stage": stage, "error_type": type(error).__name__, "message": first,
                "message_full": text, "line": int(match.group(1)) if match else None, "traceback_lines": lines,
                "warnings": caught}

    with warnings.catch_warnings(record=True) as recorded:
        warnings.simplefilter("always")
        caught: list[str] = []
        try:
            module_spec = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(module_spec)
            sys.modules[name] = module
            module_spec.loader.exec_module(module)
        except Exception as error:
            return failure("import", error, caught)
        classes = [value for value in vars(module).values()
                   if isinstance(value, type) and issubclass(value, nn.Module) and value.__module__ == name]
        if not classes:
            return {"ok": False, "stage": "build", "message": "the example defines no nn.Module",
                    "message_full": "the example defines no nn.Module"}
        try:
            model = classes[-1]().eval()
        except Exception as error:
            return failure("build", error, caught)
        try:
            args = eval(spec["inputs"], {"torch": torch, **vars(module)})
        except Exception as error:
            return failure("inputs", error, caught)
        dynamic_shapes = None
        if isinstance(args, dict):  # {"args": (...), "dynamic_shapes": {...}}
            args, dynamic_shapes = args["args"], args.get("dynamic_shapes")
        try:
            torch.export.export(model, tuple(args), dynamic_shapes=dynamic_shapes, strict=spec["strict"])
        except Exception as error:
            caught = [str(w.message).splitlines()[0] for w in recorded]
            return failure("export", error, caught)
        caught = [str(w.message).splitlines()[0] for w in recorded]
    return {"ok": True, "warnings": caught}


def main(spec_path: str) -> None:
    import io
    import contextlib
    import logging

    logging.disable(logging.CRITICAL)
    results = []
    for counter, spec in enumerate(json.loads(Path(spec_path).read_text())):
        with contextlib.redirect_stdout(io.StringIO()):  # the examples may print (that is what EXP201 is about)
            results.append(_run_job(spec, counter))
    sys.stdout.write("\n@@RESULTS@@" + json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1])

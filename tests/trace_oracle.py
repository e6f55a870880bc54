"""The ground truth for the FX2xx pages: what `torch.fx.symbolic_trace` of the pinned torch does with a source file.

Each file is imported as a fresh module in a child process (one child for a batch of files, so torch is imported
once); the last nn.Module class the file defines is the model: it is built with no arguments and traced with plain
`symbolic_trace`. The result says which stage failed ("import", "build", "trace"), torch's error type and text,
and the innermost line of the traceback that lies in the file (FX messages carry no location: the traceback is
the only pointer, pytorch/pytorch#47151).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

_CHILD = r'''
import importlib.util, json, sys, traceback, warnings
warnings.simplefilter("ignore")
import torch, torch.nn as nn, torch.fx as fx

def innermost(error, path):
    line = None
    for frame in traceback.extract_tb(error.__traceback__):
        if frame.filename == path:
            line = frame.lineno
    return line

results = {}
for index, path in enumerate(json.loads(sys.argv[1])):
    name = f"_jitlint_trace_oracle_{index}"
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    except Exception as error:
        results[path] = {"stage": "import", "type": type(error).__name__, "message": str(error), "line": None}
        continue
    classes = [v for v in vars(module).values()
               if isinstance(v, type) and issubclass(v, nn.Module) and v.__module__ == name]
    if not classes:
        results[path] = {"stage": "build", "type": "", "message": "defines no module class", "line": None}
        continue
    try:
        model = classes[-1]()
    except Exception as error:
        results[path] = {"stage": "build", "type": type(error).__name__, "message": str(error), "line": None}
        continue
    try:
        fx.symbolic_trace(model)
    except Exception as error:
        results[path] = {"stage": "trace", "type": type(error).__name__, "message": str(error),
                         "line": innermost(error, path)}
        continue
    results[path] = {"stage": None, "type": "", "message": "", "line": None}
print(json.dumps(results))
'''


@dataclass
class TraceResult:
    stage: str | None  # None when it traced
    error_type: str = ""
    message: str = ""
    line: int | None = None

    @property
    def ok(self) -> bool:
        return self.stage is None

    @property
    def rejected(self) -> bool:
        return self.stage == "trace"

    def says(self, quoted: str) -> bool:
        """Does `<type>: <message>` contain the page's quoted error (up to whitespace)? A page may quote the
        exception with its module path (`torch.fx.proxy.TraceError: ...`)."""
        text = normalise(f"{self.error_type}: {self.message}")
        quoted = normalise(quoted)
        quoted = re.sub(r"^(?:[a-z_]+\.)+(?=[A-Z]\w*:)", "", quoted)
        return bool(quoted) and quoted in text

    def __str__(self) -> str:
        if self.ok:
            return "traced"
        where = f" (line {self.line})" if self.line is not None else ""
        return f"failed at {self.stage}: {self.error_type}: {self.message.splitlines()[0] if self.message else ''}{where}"


def normalise(text: str) -> str:
    return " ".join(text.split())


def trace_files(paths: list[Path], timeout: float = 300.0) -> dict[Path, TraceResult]:
    """symbolic_trace the model of each file, in one child process."""
    completed = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps([str(path) for path in paths])],
        capture_output=True, text=True, timeout=timeout,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"the trace oracle's child failed: {completed.stderr[-2000:]}")
    raw = json.loads(completed.stdout.strip().splitlines()[-1])
    return {Path(path): TraceResult(item["stage"], item["type"], item["message"], item["line"])
            for path, item in raw.items()}


def trace_sources(sources: dict[str, str], directory: Path) -> dict[str, TraceResult]:
    """symbolic_trace the model of each named source (written to `directory`), in one child process."""
    paths = {}
    for name, source in sources.items():
        path = directory / f"{name}.py"
        path.write_text(source)
        paths[name] = path
    results = trace_files(list(paths.values()))
    return {name: results[path] for name, path in paths.items()}

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
from dataclasses import dataclass, field
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


# -- torch.jit.trace ----------------------------------------------------------------------------------------------
# The ground truth for the trace target: what `torch.jit.trace` of the pinned torch does with a source file, and
# whether the traced module then computes what eager does. Each job is a source, the Python expression of its
# example inputs, that of a second input set to compare on (a tuple of positional arguments, or a dict with "args"
# and "kwargs"; evaluated with `torch` and the module's names in scope), `strict`, and the mode the model is traced
# in and run in ("eval" or "train"). The child imports the source as a fresh module, builds the *last* nn.Module class
# it defines (no-argument constructor), keeps a deep copy as the eager reference, traces with `check_trace=False`
# (the trace alone), then calls eager and traced on the example and on the second set, in that order, and compares
# the outputs (structure, Python type, dtype, values).
#
# Every TracerWarning is recorded with torch's default filter removed: its file and line, its module, whether that
# filter (`module="torch.(?!jit)"`) hides it, and the lines of the source on the stack when it was issued (a warning
# raised inside torch or a library is attributed to that file: the user's line is the innermost frame of the source).


@dataclass
class TracerWarningSeen:
    message: str
    filename: str
    line: int
    module: str
    hidden: bool
    source_lines: list  # lines of the traced source on the stack, innermost last

    @property
    def user_line(self) -> int | None:
        return self.source_lines[-1] if self.source_lines else None


@dataclass
class JitTraceResult:
    stage: str | None  # None: traced; "import", "build", "inputs", "trace"
    verdict: str  # "accepts" (equal on both sets), "changes" (an output differs), "breaks" (the traced module raises
    # where eager does not), "rejects" (torch.jit.trace raised), or "n/a" (the job itself failed before tracing)
    error_type: str = ""
    message: str = ""
    traceback_lines: list = field(default_factory=list)
    warnings: list = field(default_factory=list)  # TracerWarningSeen
    detail: str = ""  # what differed, or the run-time error

    def says(self, quoted: str) -> bool:
        return bool(quoted.strip()) and normalise(quoted) in normalise(f"{self.error_type}: {self.message}")

    def warned_lines(self, visible_only: bool = False) -> set:
        return {w.user_line for w in self.warnings if w.user_line is not None and not (visible_only and w.hidden)}

    def __str__(self) -> str:
        if self.stage not in (None, "trace"):
            return f"failed at {self.stage}: {self.error_type}: {self.message}"
        warned = sorted(self.warned_lines())
        return f"{self.verdict}{f' ({self.detail})' if self.detail else ''}" + (
            f"; TracerWarnings at lines {warned}" if warned else "; no TracerWarning")


_JIT_CHILD = Path(__file__).with_name("jit_trace_child.py")


def jit_trace_sources(jobs: list[dict], directory: Path, timeout: float = 900) -> list[JitTraceResult]:
    """Trace each job ({"source", "inputs", "inputs2", "strict", "trace_mode", "run_mode"}) in one child process;
    results in the jobs' order."""
    directory.mkdir(parents=True, exist_ok=True)
    specs = []
    for index, job in enumerate(jobs):
        path = directory / f"traced_{index}.py"
        path.write_text(job["source"])
        specs.append({"path": str(path), **{key: value for key, value in job.items() if key != "source"}})
    spec_path = directory / "jit-trace-jobs.json"
    spec_path.write_text(json.dumps(specs))
    done = subprocess.run([sys.executable, str(_JIT_CHILD), str(spec_path)], capture_output=True, text=True,
                          timeout=timeout)
    marker = "\n@@RESULTS@@"
    if marker not in done.stdout:
        raise RuntimeError(f"the jit.trace oracle's child failed:\n{done.stderr[-3000:]}")
    results = []
    for item in json.loads(done.stdout.split(marker, 1)[1]):
        item["warnings"] = [TracerWarningSeen(**w) for w in item.get("warnings", [])]
        results.append(JitTraceResult(**item))
    return results

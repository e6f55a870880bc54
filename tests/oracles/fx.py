"""The fx oracle: what torch.fx of the pinned torch does with a source file, in a child process.

`run` / `trace_sources` (FX2xx): each file is imported as a fresh module in a child process (one child for a batch of files, so torch is imported
once); the last nn.Module class the file defines is the model: it is built with no arguments and traced with plain
`symbolic_trace`. The result says which stage failed ("import", "build", "trace"), torch's error type and text,
and the innermost line of the traceback that lies in the file (FX messages carry no location: the traceback is
the only pointer, pytorch/pytorch#47151).

`run_example` (FX1xx): a graph-pass example is ordinary eager Python (a pass over a traced GraphModule), run as a
script: torch either raises at the marked line, or, for a silent hazard, the example runs and its own `assert`s
show the wrong behaviour. The verdict says the exception's type, its whole text, and the line of the example where
the innermost frame of that file was when it was raised.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from oracles import Verdict, normalise

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
class TraceResult(Verdict):
    tool_stage = "trace"

    def says(self, quoted: str) -> bool:
        """Does `<type>: <message>` contain the page's quoted error (up to whitespace)? A page may quote the
        exception with its module path (`torch.fx.proxy.TraceError: ...`)."""
        text = normalise(f"{self.error_type}: {self.message_full}")
        quoted = normalise(quoted)
        quoted = re.sub(r"^(?:[a-z_]+\.)+(?=[A-Z]\w*:)", "", quoted)
        return bool(quoted) and quoted in text

    def describe(self) -> str:
        return "traced" if self.ok else super().describe()


def trace_files(paths: list[Path], timeout: float = 300.0) -> dict[Path, TraceResult]:
    """symbolic_trace the model of each file, in one child process."""
    completed = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps([str(path) for path in paths])],
        capture_output=True, text=True, timeout=timeout,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"the trace oracle's child failed: {completed.stderr[-2000:]}")
    raw = json.loads(completed.stdout.strip().splitlines()[-1])
    return {Path(path): TraceResult(item["stage"] is None, item["stage"], item["type"], item["message"],
                                    item["message"], item["line"])
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


def run(source: str, directory: Path) -> TraceResult:
    """The verdict of torch.fx.symbolic_trace on the last module class of `source`."""
    return trace_sources({"example": source}, directory)["example"]


# -- graph-pass examples (FX1xx) ---------------------------------------------------------------------------------
_RUNNER = r"""
import json, runpy, sys, traceback, warnings
warnings.simplefilter("ignore")
jobs, out = json.loads(sys.argv[1]), sys.argv[2]


def run(path):
    try:
        runpy.run_path(path, run_name="__main__")  # a fresh `__main__` namespace for each example
    except BaseException as error:
        line = None
        for frame in traceback.extract_tb(error.__traceback__):
            if frame.filename == path:
                line = frame.lineno
        if line is None and isinstance(error, SyntaxError) and error.filename == path:
            line = error.lineno
        return {"ok": False, "type": type(error).__name__, "message": str(error), "line": line}
    return {"ok": True}


results = []
for path in jobs:
    results.append(run(path))
    with open(out, "w") as handle:  # written after each example: a crash costs only the examples after it
        json.dump(results, handle)
"""


@dataclass
class RunResult(Verdict):
    tool_stage = "run"

    @property
    def text(self) -> str:
        return f"{self.error_type}: {self.message}"

    def says(self, quoted: str) -> bool:
        """Does the exception (`Type: message`) contain `quoted`, up to whitespace and memory addresses?"""
        return bool(quoted.strip()) and normalise(quoted) in normalise(self.text)

    def describe(self) -> str:
        if self.ok:
            return "ran without an exception"
        return f"raised {self.error_type}: {self.message.splitlines()[0] if self.message else ''} (line {self.line})"


def run_example(source: str, directory: Path, timeout: float = 120) -> RunResult:
    """Run `source` as `__main__` in a fresh interpreter (the one running the tests, so the pinned torch)."""
    return run_examples([source], directory, timeout)[0]


def run_examples(sources: list[str], directory: Path, timeout: float = 900) -> list[RunResult]:
    """Run each source as `__main__`, in order, in one fresh interpreter (torch is imported once for the batch);
    each gets its own namespace. Results in the sources' order; an example the child did not finish (it crashed
    or timed out there) and those after it fail with the child's stderr."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for index, source in enumerate(sources):
        path = directory / (f"example_{index}.py" if len(sources) > 1 else "example.py")
        path.write_text(source)
        paths.append(str(path))
    out = directory / "result.json"
    if out.exists():
        out.unlink()
    stderr = ""
    try:
        process = subprocess.run([sys.executable, "-c", _RUNNER, json.dumps(paths), str(out)], capture_output=True,
                                 text=True, timeout=timeout, cwd=directory)
        stderr = process.stderr
    except subprocess.TimeoutExpired as error:
        stderr = f"timed out after {timeout} s\n{error.stderr or ''}"
    done = json.loads(out.read_text()) if out.exists() else []
    results = []
    for data in done:
        if data["ok"]:
            results.append(RunResult(True))
        else:
            message = data["message"]
            results.append(RunResult(False, "run", data["type"], message, message, data["line"]))
    failed = RunResult(False, "run", "ChildFailed", stderr[-2000:], stderr[-2000:])
    return results + [failed] * (len(sources) - len(results))


def neutralise(source: str, keep: int, rows: list[int]) -> str:
    """`source` with every marked row but `keep` replaced by `pass` (same indentation): each marked line of a page's
    example is shown to fail on its own."""
    lines = source.splitlines()
    for row in rows:
        if row != keep:
            line = lines[row - 1]
            lines[row - 1] = line[: len(line) - len(line.lstrip())] + "pass"
    return "\n".join(lines) + "\n"

"""The trace oracle: what `torch.jit.trace` of the pinned torch does with a source file, and
whether the traced module then computes what eager does. Each job is a source, the Python expression of its
example inputs, that of a second input set to compare on (a tuple of positional arguments, or a dict with "args"
and "kwargs"; evaluated with `torch` and the module's names in scope), `strict`, and the mode the model is traced
in and run in ("eval" or "train"). The child imports the source as a fresh module, builds the *last* nn.Module class
it defines (no-argument constructor), keeps a deep copy as the eager reference, traces with `check_trace=False`
(the trace alone), then calls eager and traced on the example and on the second set, in that order, and compares
the outputs (structure, Python type, dtype, values).

Every TracerWarning is recorded with torch's default filter removed: its file and line, its module, whether that
filter (`module="torch.(?!jit)"`) hides it, and the lines of the source on the stack when it was issued (a warning
raised inside torch or a library is attributed to that file: the user's line is the innermost frame of the source).
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from oracles import Verdict, normalise


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
class JitTraceResult(Verdict):
    tool_stage = "trace"
    # "accepts" (equal on both sets), "changes" (an output differs), "breaks" (the traced module raises where eager
    # does not), "rejects" (torch.jit.trace raised), or "n/a" (the job itself failed before tracing)
    verdict: str = ""
    detail: str = ""  # what differed, or the run-time error
    # (`warnings` holds TracerWarningSeen here; `ok` is the verdict "accepts")

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
        results.append(JitTraceResult(ok=item.get("verdict") == "accepts", **item))
    return results


def run(source: str, directory: Path, inputs: str = "(torch.randn(2, 3),)", **options) -> JitTraceResult:
    """The verdict of torch.jit.trace on the last module class of `source` (`options`: inputs2, strict, trace_mode,
    run_mode, as `jit_trace_sources` takes them)."""
    return jit_trace_sources([{"source": source, "inputs": inputs, **options}], directory)[0]

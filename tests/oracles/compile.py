"""The compile oracle: what `torch.compile` (TorchDynamo, backend "eager") of the pinned torch does with a source
file, in a child process (torch is never imported for it in the test process). Shaped like the oracles of
the other oracles (`run(source, tmp_path, **settings) -> Verdict`), with a batch entry for many sources.

Each job is a source, the Python expression of one call's arguments (evaluated with `torch`, the module's names and
`i`, the call's index, in scope: `(torch.randn(4, 3), f"mode{i}")`), the number of calls, the mode (`fullgraph`,
`capture_scalar_outputs`, `capture_dynamic_output_shape_ops`, `dynamic`) and whether to switch `.train()`/`.eval()`
between calls. The child imports the source as a fresh module, builds the *last* nn.Module class it defines
(no-argument constructor, `eval()`), and observes the compile with the confirmer's own child side
(`src/jitlint/targets/compile/confirm_child.py`, standard library and torch only; run by `compile_child.py`).
Stages: "import", "build", "inputs" (the job's fault) or "compile" (torch.compile itself).
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from oracles import Verdict

_CHILD = Path(__file__).with_name("compile_child.py")


@dataclass
class CompileVerdict(Verdict):
    # ok: no graph break, no recompile, no error; stage: None when the model was built and compiled, else "import",
    # "build", "inputs"; message: for a failed stage, the exception
    tool_stage = "compile"
    graphs: int = 0
    # Each once, in order: {"lines", "id", "ids" (every id the log names), "reason", "eager"}.
    breaks: list[dict] = field(default_factory=list)
    recompiles: list[dict] = field(default_factory=list)  # {"lines", "guard"}
    limit: str | None = None  # the recompile-limit warning, when it was hit
    error: dict | None = None  # {"type", "message", "lines", "id"}: what the compiled call raised

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
    done = subprocess.run([sys.executable, str(_CHILD), str(spec_path)], capture_output=True, text=True, timeout=timeout)
    marker = "\n@@RESULTS@@"
    if marker not in done.stdout:
        raise RuntimeError(f"the compile oracle's child failed:\n{done.stderr[-3000:]}")
    return [CompileVerdict(**item) for item in json.loads(done.stdout.split(marker, 1)[1])]


def run(source: str, directory: Path, inputs: str = "(torch.randn(4, 3),)", calls: int = 2, **settings) -> CompileVerdict:
    """The verdict of torch.compile on the last module class of `source`, called `calls` times with `inputs`."""
    return compile_sources([{"source": source, "inputs": inputs, "calls": calls, **settings}], directory)[0]

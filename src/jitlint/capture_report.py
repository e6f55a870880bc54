"""Why a finding's code is captured: the chain from a root (a module's `forward`, a `@torch.jit.script`
function) through the calls that reach the finding's function, and the calls through which many findings come.

Torch says it too ("'median_blur' is being compiled since it was called from 'MedianBlur.forward'"), one function at
a time; the summary says it for the run: when many findings sit in code reached through one call, it names the call
and what would stop the capture there (`@torch.jit.ignore` for TorchScript, `torch.fx.wrap` or a leaf module for FX,
`torch.compiler.disable` for compile). No LibCST import here: cached runs render chains too.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from jitlint.finding import CaptureStep, Finding

GROUP_MIN = 5  # findings under one call before the summary names it
GROUPS_SHOWN = 3

# What stops each target's capture at a function (None: nothing does; export traces through everything).
STOPPERS = {
    "script": ("@torch.jit.ignore", "@torch.jit.ignore"),
    "fx": ("torch.fx.wrap", "a leaf module"),  # (a free function, a method or submodule)
    "compile": ("@torch.compiler.disable", "@torch.compiler.disable"),
}


def stopper(target: str | None, step: CaptureStep) -> str | None:
    """What stops `target`'s capture at the function `step` calls (a method: its class name is in its name)."""
    pair = STOPPERS.get(target or "")
    if pair is None:
        return None
    return pair[1] if "." in step.function else pair[0]


@dataclass(frozen=True)
class CaptureGroup:
    target: str | None
    root: CaptureStep
    call: CaptureStep
    count: int
    functions: int

    def describe(self) -> str:
        where = f"{self.call.filename}:{self.call.row}" if self.call.row else self.call.filename
        text = (f"{self.count} findings are in code `{self.root.function}` reaches through one call, "
                f"`{self.call.function}` at {where} ({self.functions} function{'' if self.functions == 1 else 's'})")
        stop = stopper(self.target, self.call)
        if stop is not None:
            text += (f"; {stop} on `{self.call.function}` would stop the {self.target} capture there"
                     if not stop.startswith("a ") else
                     f"; making it {stop} would stop the {self.target} capture there")
        return text + "."


def capture_groups(findings: list[Finding]) -> list[CaptureGroup]:
    """The calls (the first from a root) through which at least GROUP_MIN findings of one target come, most first."""
    from jitlint.codes import TARGET_OF

    counts: Counter = Counter()
    functions: dict[tuple, set[str]] = {}
    steps: dict[tuple, tuple[CaptureStep, CaptureStep]] = {}
    for finding in findings:
        chain = finding.captured_from
        if len(chain) < 2:
            continue
        target = TARGET_OF.get(finding.code)
        key = (target, chain[0].function, chain[0].filename, chain[1].function, chain[1].filename, chain[1].row)
        counts[key] += 1
        functions.setdefault(key, set()).add(chain[-1].function)
        steps.setdefault(key, (chain[0], chain[1]))
    groups = [CaptureGroup(key[0], steps[key][0], steps[key][1], count, len(functions[key]))
              for key, count in counts.items() if count >= GROUP_MIN]
    groups.sort(key=lambda group: (-group.count, group.call.filename, group.call.row))
    return groups[:GROUPS_SHOWN]

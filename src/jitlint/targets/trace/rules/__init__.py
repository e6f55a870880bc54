"""The torch.jit.trace rules, one family per module; every module here is discovered by `jitlint.rules`.

TRC1xx: what `torch.jit.trace` rejects while tracing (outputs, inputs, export-era constructs). TRC2xx: what it
accepts but freezes: a Python decision or value computed from the example becomes a constant of the traced
program, so another input gets the example's branch, loop count or value (silent unless torch warns). TRC3xx:
advice (TorchScript-only constructs, how the model is traced).
"""

from __future__ import annotations

import re
from typing import ClassVar

from jitlint.rules.base import Rule, RuleContext

# torch.jit.trace's default filter (torch/jit/_trace.py): TracerWarnings whose module matches are not shown. The
# `.` matches any character, so `torchvision.*` and `torchaudio.*` are hidden too.
HIDDEN_MODULES = re.compile(r"torch.(?!jit)")


class TraceRule(Rule):
    """A rule of the `trace` target: it fires in code `torch.jit.trace` runs (the `trace` capture map)."""

    target: ClassVar[str | None] = "trace"
    policy: ClassVar[str | None] = "trace"


def torch_says(ctx: RuleContext, warning: str, inside_torch: bool = False) -> str:
    """What the user sees from torch at this place: its TracerWarning (quoted by its start), whether torch's default
    filter hides it, or nothing at all."""
    if not warning:
        return "torch gives no warning for it"
    if inside_torch:
        return (f"torch's warning (\"{warning}...\") is issued inside torch's own code, where its default filter "
                "hides it: nothing is shown")
    if HIDDEN_MODULES.match(ctx.module.name or ""):
        return (f"torch warns (\"{warning}...\"), but its default filter (`module=\"torch.(?!jit)\"`) hides "
                f"warnings from `{ctx.module.name.split('.')[0]}` modules: nothing is shown")
    return f"torch warns (\"{warning}...\")"

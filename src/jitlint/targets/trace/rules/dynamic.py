"""TRC000, TRC010: what the trace confirmer (`--dynamic --target trace`) observes that no static finding explains:
a trace error (torch names no line: reported at the class), and a TracerWarning or a difference between the traced
module and eager (at its line). Reported by the confirmer, never by visiting code."""

from __future__ import annotations

from jitlint.targets.trace.rules import TraceRule


class TraceError(TraceRule):
    code = "TRC000"
    name = "jit-trace-error"
    severity = "error"
    summary = "with `--dynamic --target trace`: what torch.jit.trace rejects that no static rule explains"
    message = "torch.jit.trace rejects this, and no static rule explains it"
    engine_reported = True


class TraceWarning(TraceRule):
    code = "TRC010"
    name = "trace-dependent"
    severity = "warning"
    summary = ("with `--dynamic --target trace`: a TracerWarning, or a line where the traced module differs from "
               "eager, that no static rule explains")
    message = "torch.jit.trace freezes something here, and no static rule explains it"
    engine_reported = True

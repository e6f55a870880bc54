"""The `trace` target: what `torch.jit.trace` (torch 2.13) rejects, and what it silently freezes: every Python
decision and value computed from the example inputs becomes a constant of the traced program (codes TRC)."""

from jitlint.targets import Target

TARGET = Target(
    name="trace",
    prefix="TRC",
    description="torch.jit.trace (and the tracer-based `torch.onnx.export(dynamo=False)`)",
    policies={"trace": "jitlint.targets.trace.policy:TracePolicy"},
    confirmer="jitlint.targets.trace.confirm:TraceStrategy",
    settings="jitlint.targets.trace.settings:TraceSettings",
)

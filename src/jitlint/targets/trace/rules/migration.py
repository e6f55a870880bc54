"""TRC301: TorchScript-only constructs that torch.jit.trace does not honour (verified on torch 2.13): the tracer
runs the eager Python, so `@torch.jit.ignore`/`@torch.jit.unused` bodies are traced and `torch.jit.is_scripting()`
is False. Reported only when the `script` target is not enabled too: a codebase checked for both still needs them
for TorchScript (what they hide is then checked for trace where it is traced)."""

from __future__ import annotations

from jitlint.rules.migration import ScriptOnlyConstructRule
from jitlint.targets.trace.rules import TraceRule

_CHECKS = {
    "torch.jit.is_scripting": "`torch.jit.is_scripting()` is False under torch.jit.trace: the eager side is what is "
                              "traced, and the TorchScript side is dead code there",
    "torch.jit.annotate": "`torch.jit.annotate(T, value)` is only a TorchScript type hint; under trace it returns "
                          "`value`",
}
_DECORATORS = {
    "torch.jit.ignore": "`@torch.jit.ignore` is not honoured by torch.jit.trace: the body is traced like any other "
                        "code (a Python value it computes is baked)",
    "torch.jit.unused": "`@torch.jit.unused` is not honoured by torch.jit.trace: the body is traced if forward "
                        "reaches it",
}


class TorchScriptOnlyConstruct(TraceRule, ScriptOnlyConstructRule):
    code = "TRC301"
    name = "torchscript-only-under-trace"
    severity = "info"
    summary = "`is_scripting()`, `@torch.jit.ignore`/`unused`, `torch.jit.annotate`: ignored by torch.jit.trace"
    message = "a TorchScript-only construct that torch.jit.trace ignores"
    checks = _CHECKS
    decorators = _DECORATORS

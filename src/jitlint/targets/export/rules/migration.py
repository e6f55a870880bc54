"""EXP301: the migration view. TorchScript-only constructs that torch.export does not honour, so that code moved to
export no longer needs them (verified on torch 2.13). Reported only when the `script` target is not enabled too: a
codebase checked for both still needs them for TorchScript."""

from __future__ import annotations

from jitlint.rules.migration import ScriptOnlyConstructRule
from jitlint.targets.export.rules import ExportRule

_CHECKS = {
    "torch.jit.is_scripting": "`torch.jit.is_scripting()` is always False under torch.export: the guarded eager side "
                              "is what export traces, and the TorchScript side is dead code there",
    "torch.jit.is_tracing": "`torch.jit.is_tracing()` is False under torch.export: only its eager side is traced",
    "torch.jit.annotate": "`torch.jit.annotate(T, value)` is only a TorchScript type hint; under export it returns "
                          "`value`: write the value (and a variable annotation if wanted)",
}
_DECORATORS = {
    "torch.jit.ignore": "`@torch.jit.ignore` is not honoured by torch.export: the body is traced like any other code",
    "torch.jit.unused": "`@torch.jit.unused` is not honoured by torch.export: the body is traced if forward reaches it",
}


class TorchScriptOnlyConstruct(ExportRule, ScriptOnlyConstructRule):
    code = "EXP301"
    name = "torchscript-only-construct"
    severity = "info"
    summary = "`is_scripting()`, `@torch.jit.ignore`/`unused`, `torch.jit.annotate`: not needed once on export"
    message = "a TorchScript-only construct that torch.export ignores"
    checks = _CHECKS
    decorators = _DECORATORS
    decorator_note = " (what it hid from TorchScript must now export)"

"""JIT000: what the dynamic checker (`--dynamic`) finds torch rejecting that no static rule explains."""

from jitlint.targets.script.rules import ScriptRule


class CompilerError(ScriptRule):
    code = "JIT000"
    name = "compiler-error"
    severity = "error"
    summary = "with `--dynamic`: what torch rejects that no static rule explains"
    message = "torch.jit.script rejects this, and no static rule explains it"
    engine_reported = True  # the dynamic checker reports it (`--dynamic`)

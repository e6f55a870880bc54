"""JIT0xx: files that cannot be linted. The engine reports these; they have no visitors."""

from jitlint.rules.base import Rule


class CompilerError(Rule):
    code = "JIT000"
    name = "compiler-error"
    severity = "error"
    message = "torch.jit.script rejects this, and no static rule explains it"
    engine_reported = True  # the dynamic checker reports it (`--dynamic`)


class CannotParse(Rule):
    code = "JIT001"
    name = "syntax-error"
    severity = "error"
    message = "cannot parse"
    engine_reported = True


class CannotRead(Rule):
    code = "JIT002"
    name = "unreadable-file"
    severity = "error"
    message = "cannot read or decode"
    engine_reported = True


class InternalError(Rule):
    code = "JIT003"
    name = "internal-error"
    severity = "error"
    message = "jitlint failed on this file"
    engine_reported = True  # an exception inside jitlint; the run goes on and exits 2

"""JIT001-003: files that cannot be linted, shared by every target. The engine reports these; they have no visitors."""

from jitlint.rules.base import Rule


class CannotParse(Rule):
    code = "JIT001"
    name = "syntax-error"
    severity = "error"
    summary = "a file that does not parse"
    message = "cannot parse"
    engine_reported = True


class CannotRead(Rule):
    code = "JIT002"
    name = "unreadable-file"
    severity = "error"
    summary = "a path that cannot be read or decoded (missing, permissions, encoding, NUL bytes, over 8 MiB)"
    message = "cannot read or decode"
    engine_reported = True


class InternalError(Rule):
    code = "JIT003"
    name = "internal-error"
    severity = "error"
    summary = "jitlint failed on the file (a bug in a rule); exit code 2"
    message = "jitlint failed on this file"
    engine_reported = True  # an exception inside jitlint; the run goes on and exits 2

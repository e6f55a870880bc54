"""JIT001-005: files that cannot be linted, shared by every target. The engine reports these; they have no visitors."""

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
    summary = "a path that cannot be read or decoded (missing, permissions, encoding, NUL bytes)"
    message = "cannot read or decode"
    engine_reported = True


class InternalError(Rule):
    code = "JIT003"
    name = "internal-error"
    severity = "error"
    summary = "jitlint failed on the file (a bug in a rule); exit code 2"
    message = "jitlint failed on this file"
    engine_reported = True  # an exception inside jitlint; the run goes on and exits 2


class FileSkipped(Rule):
    code = "JIT004"
    name = "file-too-large"
    severity = "warning"
    summary = "a valid file skipped: over `max-file-size` (default 1 MiB), or one statement over 20,000 tokens"
    message = "skipped: too large to analyze"
    engine_reported = True


class GeneratedFile(Rule):
    code = "JIT005"
    name = "generated-file"
    severity = "info"
    summary = "a file that declares itself generated (`@generated`, `DO NOT EDIT`) is skipped unless `lint-generated`"
    message = "skipped: generated file"
    engine_reported = True

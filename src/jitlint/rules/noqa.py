"""JIT900: `# noqa` codes that suppressed nothing. Shared by every target and reported by the engine, which
knows what each comment suppressed; off by default (ruff's RUF100)."""

from jitlint.rules.base import Rule


class UnusedNoqa(Rule):
    code = "JIT900"
    name = "unused-noqa"
    severity = "warning"
    summary = "a `# noqa` code that suppressed nothing (off by default: `--extend-select JIT900`)"
    message = "unused `noqa` directive"
    engine_reported = True
    fix = "safe"
    default_enabled = False

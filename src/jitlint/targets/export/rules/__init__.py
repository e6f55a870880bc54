"""The torch.export rules, one family per module; every module here is discovered by `jitlint.rules`.

EXP1xx: what default (non-strict) `torch.export.export` rejects. EXP2xx: what it accepts but silently changes
(specialises, bakes, drops). EXP3xx: TorchScript-only constructs that export ignores (the migration view).
"""

from __future__ import annotations

from typing import ClassVar

from jitlint.rules.base import Rule, RuleContext


class ExportRule(Rule):
    """A rule of the `export` target: it fires in code `torch.export.export` traces (the `export` capture map)."""

    target: ClassVar[str | None] = "export"
    policy: ClassVar[str | None] = "export"
    # The export modes in which the rule's finding holds: `[tool.jitlint.export] strict = true` selects "strict".
    # Strict export (TorchDynamo) traces NumPy, `int(tensor)` and tensor asserts that default export rejects
    # (the patterns where the modes disagree are in tests/export_patterns.py).
    modes: ClassVar[tuple[str, ...]] = ("default", "strict")


def strict(ctx: RuleContext) -> bool:
    """Whether the run judges strict-mode export (`[tool.jitlint.export] strict = true`)."""
    return ctx.settings.strict


def in_mode(rule: ExportRule, ctx: RuleContext) -> bool:
    return ("strict" if strict(ctx) else "default") in rule.modes


def registered(ctx: RuleContext, name: str) -> bool:
    """`self.<name>` is a registered buffer or parameter (`register_buffer`, `register_parameter`) of a class the
    current method is traced for."""
    function = ctx.function
    if function is None:
        return False
    for owner in function.owners:
        info = ctx.project.attributes(owner).get(name)
        if info is not None and info.registered:
            return True
    return False

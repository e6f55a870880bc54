"""The TorchScript rules, one family per module; every module here is discovered by `jitlint.rules`."""

from __future__ import annotations

from typing import ClassVar

from jitlint.rules.base import PendingFix, Rule, RuleContext


class ScriptRule(Rule):
    """A rule of the `script` target: it fires in code `torch.jit.script` compiles (the `script` capture map)."""

    target: ClassVar[str | None] = "script"
    policy: ClassVar[str | None] = "script"
    pruned_note: ClassVar[str] = "torch parses the whole function, including this `is_scripting()` branch"

    def fix_event(self, node, message: str, ctx: RuleContext) -> PendingFix | None:
        """The fix of a flow event the rule reports (`jitlint.targets.script.events`), at `node` with `message`;
        `ctx.ancestors` lead down to `node`. None: no fix."""
        return None

"""The TorchScript rules, one family per module; every module here is discovered by `jitlint.rules`."""

from __future__ import annotations

from typing import ClassVar

from jitlint.rules.base import ResultRule, Rule
from jitlint.targets.script.claims import results_for, with_path
from jitlint.targets.script.facts import ScriptTypes


class ScriptRule(Rule):
    """A rule of the `script` target: it fires in code `torch.jit.script` compiles (the `script` capture map)."""

    target: ClassVar[str | None] = "script"
    policy: ClassVar[str | None] = "script"
    pruned_note: ClassVar[str] = "torch parses the whole function, including this `is_scripting()` branch"


class TypedRule(ScriptRule, ResultRule):
    """A script rule that reports the typer results it owns (`results_for`), its fixes built where the result is."""

    facts = (ScriptTypes,)

    def results(self, node, ctx):
        return results_for(self, node, ctx)

    def fix_in_context(self, ctx, function, result, build):
        return with_path(ctx, function, result.node, build)

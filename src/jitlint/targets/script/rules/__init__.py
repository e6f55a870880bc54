"""The TorchScript rules, one family per module; every module here is discovered by `jitlint.rules`."""

from __future__ import annotations

from typing import ClassVar

from jitlint.rules.base import Rule


class ScriptRule(Rule):
    """A rule of the `script` target: it fires in code `torch.jit.script` compiles (the `script` capture map)."""

    target: ClassVar[str | None] = "script"
    policy: ClassVar[str | None] = "script"
    pruned_note: ClassVar[str] = "torch parses the whole function, including this `is_scripting()` branch"

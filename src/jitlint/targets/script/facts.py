"""The script target's analyses that rules read as facts (`jitlint.facts`): the TorchScript typer's results of a
compiled function (`ScriptTypes`, computed in `jitlint.targets.script.typing.analysis`)."""

from __future__ import annotations

from jitlint.targets.script.typing.analysis import ScriptTypes

__all__ = ["ScriptTypes"]

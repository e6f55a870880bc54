"""The script target's analyses that rules read as facts (`jitlint.facts`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jitlint.facts import Fact

if TYPE_CHECKING:
    from jitlint.rules.base import RuleContext
    from jitlint.targets.script.typing.results import FunctionTypes


class ScriptTypes(Fact):
    """What the TorchScript typer (`jitlint.targets.script.typing`) finds in a compiled function: the type of each
    expression, the problems torch reports as typed results, and the function's return type. Computed once for
    every rule that reads types."""

    @classmethod
    def compute(cls, ctx: "RuleContext", node: cst.FunctionDef) -> "FunctionTypes":
        from jitlint.targets.script.typing.analysis import compute_types

        return compute_types(ctx, node)

"""The script target's analyses that rules read as facts (`jitlint.facts`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jitlint.facts import Fact

if TYPE_CHECKING:
    from jitlint.rules.base import RuleContext
    from jitlint.targets.script.typeflow import Event


class FlowEvents(Fact):
    """The flow events of a compiled function (the TorchScript type domain of the control-flow walk,
    `jitlint.targets.script.typeflow`), computed once for all the rules that report them."""

    @classmethod
    def compute(cls, ctx: "RuleContext", node: cst.FunctionDef) -> list["Event"]:
        from jitlint.targets.script.typeflow import analyse  # it imports the rule classes that report the events

        return analyse(node, ctx)

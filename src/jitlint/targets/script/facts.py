"""The script target's analyses that rules read as facts (`jitlint.facts`)."""

from __future__ import annotations

import libcst as cst

from jitlint.facts import Fact
from jitlint.rules.base import RuleContext
from jitlint.targets.script.typeflow import Event, analyse


class FlowEvents(Fact):
    """The flow events of a compiled function (the TorchScript type domain of the control-flow walk,
    `jitlint.targets.script.typeflow`), computed once for all the rules that report them."""

    @classmethod
    def compute(cls, ctx: RuleContext, node: cst.FunctionDef) -> list[Event]:
        return analyse(node, ctx)

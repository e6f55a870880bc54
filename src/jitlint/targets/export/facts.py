"""The export target's analyses that rules read as facts (`jitlint.facts`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jitlint.facts import Fact

if TYPE_CHECKING:
    from jitlint.rules.base import RuleContext


class DataflowEvents(Fact):
    """The data-dependence events of a traced function (`jitlint.targets.export.dataflow`), computed once for all
    the rules that report them."""

    @classmethod
    def compute(cls, ctx: "RuleContext", node: cst.FunctionDef) -> list:
        from jitlint.targets.export.dataflow import analyse

        return analyse(node, ctx)

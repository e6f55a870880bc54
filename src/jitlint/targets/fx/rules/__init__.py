"""The torch.fx rules, one family per module; every module here is discovered by `jitlint.rules`."""

from __future__ import annotations

from typing import ClassVar

from jitlint.rules.base import Rule, Scope
from jitlint.targets.fx.fxtypes import FileFxTypes


class FxPassRule(Rule):
    """A rule of the `fx` target about graph-pass code (FX1xx): it looks at every file and fires only on receivers
    whose FX type (GraphModule, Graph, Node, Interpreter) is known."""

    target: ClassVar[str | None] = "fx"
    policy: ClassVar[str | None] = "fx-pass"
    scope: ClassVar[Scope] = "anywhere"
    facts = (FileFxTypes,)  # the FX type of receivers (`fxtypes.type_of`)


class FxTraceRule(Rule):
    """A rule of the `fx` target about `torch.fx.symbolic_trace` readiness (FX2xx): it fires in the code the
    `fx-trace` policy says symbolic_trace runs (forward of non-leaf modules and what it calls)."""

    target: ClassVar[str | None] = "fx"
    policy: ClassVar[str | None] = "fx-trace"

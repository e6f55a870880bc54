"""The torch.fx rules, one family per module; every module here is discovered by `jitlint.rules`."""

from __future__ import annotations

from typing import ClassVar

from jitlint.rules.base import Rule, Scope


class FxPassRule(Rule):
    """A rule of the `fx` target about graph-pass code (FX1xx): it looks at every file and fires only on receivers
    whose FX type (GraphModule, Graph, Node, Interpreter) is known."""

    target: ClassVar[str | None] = "fx"
    policy: ClassVar[str | None] = "fx-pass"
    scope: ClassVar[Scope] = "anywhere"

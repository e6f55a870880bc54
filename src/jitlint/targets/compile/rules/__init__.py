"""The torch.compile rules, one family per module; every module here is discovered by `jitlint.rules`.

DYN1xx: graph breaks (where TorchDynamo stops the graph, runs Python, and starts another; under `fullgraph=True`,
an error). DYN2xx: recompilations that do not settle (a guard that fails on every call, until the recompile limit
makes the function run eagerly). Every finding says what torch.compile does there in the mode the run judges
(`[tool.jitlint.compile]`, `ctx.settings`) and what torch suggests instead.
"""

from __future__ import annotations

from typing import ClassVar

import libcst as cst

from jitlint.facts import Fact
from jitlint.rules.base import Rule, RuleContext

# torch 2.13's `torch._dynamo.config.recompile_limit`.
RECOMPILE_LIMIT = 8


class LoopBodies(Fact):
    """The ids of the nodes of a function that run inside a `for` or `while` loop of that function (the body, and a
    `while` test). Dynamo cannot resume after a graph break inside a loop: it gives up the whole frame."""

    policy_dependent = False

    @classmethod
    def compute(cls, ctx: RuleContext, node: cst.FunctionDef) -> frozenset[int]:
        inside: set[int] = set()

        class Collect(cst.CSTVisitor):
            def __init__(self) -> None:
                self.depth = 0

            def on_visit(self, visited: cst.CSTNode) -> bool:
                if isinstance(visited, (cst.FunctionDef, cst.ClassDef, cst.Lambda)) and visited is not node:
                    return False
                if self.depth:
                    inside.add(id(visited))
                return super().on_visit(visited)

            def visit_For(self, loop: cst.For) -> bool:
                loop.iter.visit(self)
                self.depth += 1
                loop.body.visit(self)
                self.depth -= 1
                if loop.orelse is not None:
                    loop.orelse.visit(self)
                return False

            def visit_While(self, loop: cst.While) -> bool:
                self.depth += 1
                loop.test.visit(self)
                loop.body.visit(self)
                self.depth -= 1
                if loop.orelse is not None:
                    loop.orelse.visit(self)
                return False

        node.body.visit(Collect())
        return frozenset(inside)


class CompileRule(Rule):
    """A rule of the `compile` target: it fires in code TorchDynamo traces (the `compile` capture map)."""

    target: ClassVar[str | None] = "compile"
    policy: ClassVar[str | None] = "compile"
    facts = (LoopBodies,)


def break_cost(ctx: RuleContext, node: cst.CSTNode, function: cst.FunctionDef | None = None) -> str:
    """What a graph break at `node` costs in the judged mode, as a message's clause."""
    if ctx.settings.fullgraph:
        return "with `fullgraph=True` torch.compile raises here"
    function = function if function is not None else (ctx.function.info.node if ctx.function else None)
    if function is not None and id(node) in ctx.fact(LoopBodies, function):
        return ("torch.compile breaks the graph here, inside a loop, where Dynamo cannot resume: the whole function "
                "runs eagerly (what it calls is compiled on its own)")
    return ("torch.compile breaks the graph here: the function is split into two graphs, with this code run by "
            "Python between them")


def eager_cost(ctx: RuleContext) -> str:
    """The clause for a break after which Dynamo gives up the whole function."""
    if ctx.settings.fullgraph:
        return "with `fullgraph=True` torch.compile raises here"
    return ("torch.compile cannot resume after this break: the whole function falls back to eager (what it calls is "
            "compiled on its own)")


def enclosing_function(ctx: RuleContext) -> cst.FunctionDef | None:
    """The function whose code is being visited (the captured function itself, not a nested one)."""
    return ctx.function.info.node if ctx.function is not None else None

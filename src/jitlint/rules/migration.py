"""The shape shared by the migration rules (TRC301, EXP301): TorchScript-only constructs that a tracing tool does not
honour (`torch.jit.is_scripting()` and friends called in captured code; `@torch.jit.ignore`/`@torch.jit.unused` on
a method of a module class). Reported only when the `script` target is not enabled too: a codebase checked for both
still needs them for TorchScript. Each target's rule module words what its tool does with each construct."""

from __future__ import annotations

from typing import ClassVar

import libcst as cst

from jitlint.rules.base import Rule, RuleContext

_ADVICE = "remove it when TorchScript is no longer a target"


class ScriptOnlyConstructRule(Rule):
    # Qualified name of a call -> what the tool does with it; of a decorator -> the same.
    checks: ClassVar[dict[str, str]] = {}
    decorators: ClassVar[dict[str, str]] = {}
    # Said after the advice for a decorator (what it hid from TorchScript is now captured by the tool).
    decorator_note: ClassVar[str] = ""
    scope = "anywhere"
    text_hints = ("jit",)
    outside_handlers = frozenset({"ClassDef"})

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if ctx.function is None or not ctx.function.body_captured or "script" in ctx.targets:
            return
        qualified = ctx.qualify(node.func) or ""
        if qualified in self.checks:
            ctx.report(node, f"{self.checks[qualified]}; {_ADVICE}")

    def visit_ClassDef(self, node: cst.ClassDef, ctx: RuleContext) -> None:
        cls = ctx.module_class(node)
        if cls is None or "script" in ctx.targets:
            return
        for method in cls.methods.values():
            for decorator in method.node.decorators:
                expression = decorator.decorator
                qualified = ctx.qualify(expression.func if isinstance(expression, cst.Call) else expression) or ""
                if qualified in self.decorators:
                    ctx.report(expression, f"{self.decorators[qualified]}; {_ADVICE}{self.decorator_note}")

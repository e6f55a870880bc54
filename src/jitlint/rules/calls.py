"""JIT4xx: calls TorchScript cannot compile."""

from __future__ import annotations

import libcst as cst

from jitlint.rules.base import Rule, RuleContext


class NoNumpy(Rule):
    code = "JIT401"
    name = "no-numpy"
    severity = "error"
    message = "NumPy is not available in TorchScript"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "numpy" and not node.args:
            ctx.report(
                node,
                "`.numpy()` is not supported by TorchScript; keep the value a Tensor, or move the NumPy code into "
                "a `@torch.jit.ignore` method or under `if not torch.jit.is_scripting():`",
            )
            return
        qualified = ctx.qualify(func)
        if qualified == "torch.from_numpy":
            ctx.report(node, "`torch.from_numpy()` is not supported by TorchScript; the input is already a Tensor there")
        elif qualified is not None and (qualified.startswith("numpy.") or qualified == "numpy"):
            ctx.report(node, f"NumPy call `{qualified}` is not supported by TorchScript; use the torch equivalent")

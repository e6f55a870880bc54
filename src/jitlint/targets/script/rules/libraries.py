"""Calls of installed libraries' functions that TorchScript compiles from their source, and cannot (the table
`kind = "library-function"` of `jitlint/data/unsupported.toml`)."""

from __future__ import annotations

import libcst as cst

from jitlint.apis import unsupported
from jitlint.rules.base import RuleContext
from jitlint.targets.script.rules import ScriptRule


class LibraryFunctionNotScriptable(ScriptRule):
    code = "JIT419"
    name = "library-function-not-scriptable"
    severity = "error"
    summary = "a library function TorchScript cannot compile (`einops.rearrange`, ...)"
    message = "a library function that TorchScript cannot compile"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        qualified = ctx.qualify(node.func)
        if qualified not in unsupported("library-function"):
            return
        instead = ("a layer of `einops.layers.torch` built in `__init__` (those script), "
                   if qualified.startswith("einops.") else "")
        ctx.report(node, f"`{qualified}()` is compiled from its library's source, which TorchScript cannot compile "
                         "(torch reports it inside the library, with no line in yours); use "
                         f"{instead}tensor methods, or move the call into a `@torch.jit.ignore` method")

"""Calls of installed libraries' functions and classes that TorchScript compiles from their source, and cannot (the
tables `kind = "library-function"` and `kind = "library-class"` of `jitlint/data/unsupported.toml`)."""

from __future__ import annotations

import libcst as cst

from jitlint.apis import unsupported
from jitlint.rules.base import RuleContext
from jitlint.targets.script.rules import ScriptRule


class LibraryFunctionNotScriptable(ScriptRule):
    code = "JIT419"
    name = "library-function-not-scriptable"
    severity = "error"
    summary = "a library function or class TorchScript cannot compile (`einops.rearrange`, `torch.distributions.Normal`, ...)"
    message = "a library function that TorchScript cannot compile"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        qualified = ctx.qualify(node.func)
        if qualified in unsupported("library-class"):
            # torch compiles the class (each method of its own body) where compiled code builds it, before it
            # matches the arguments, and fails inside it; the user's call is the line it names
            ctx.report(node, f"`{qualified}` is a Python class that TorchScript compiles from its library's source "
                             "where compiled code builds it, and it cannot (torch fails inside the class); draw or "
                             "evaluate with tensor operations (`torch.rand`, `torch.randn`, `torch.bernoulli`), or "
                             "move this into a `@torch.jit.ignore` method")
            return
        if qualified not in unsupported("library-function"):
            return
        instead = ("a layer of `einops.layers.torch` built in `__init__` (those script), "
                   if qualified.startswith("einops.") else "")
        ctx.report(node, f"`{qualified}()` is compiled from its library's source, which TorchScript cannot compile "
                         "(torch reports it inside the library, with no line in yours); use "
                         f"{instead}tensor methods, or move the call into a `@torch.jit.ignore` method")

"""JIT425: names compiled code cannot resolve (TorchScript's "undefined value"), from the scope analysis of
`jitlint.targets.script.scopes`."""

from __future__ import annotations

import libcst as cst

from jitlint.rules.base import RuleContext
from jitlint.targets.script.rules import ScriptRule
from jitlint.targets.script.scopes import unresolved_reads


class UndefinedName(ScriptRule):
    code = "JIT425"
    name = "undefined-name"
    severity = "error"
    summary = (
        "a name compiled code reads that nothing binds before it: deleted with `del` (on any path), a comprehension's "
        "variable read outside it, or defined nowhere in the function, its module or builtins"
    )
    message = "undefined value: nothing binds this name before it is read here"

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        function = ctx.function
        if function is None or function.info.node is not node or not function.body_captured:
            return
        if any(isinstance(ancestor, (cst.FunctionDef, cst.Lambda)) for ancestor in ctx.ancestors[:-1]):
            return  # a closure: what it may read from the enclosing function is not modelled
        for read in unresolved_reads(node, ctx.module.tree, function.pruned, ctx.module.text):
            if read.deleted:
                message = f"undefined value `{read.name.value}`: `del` removed it on a path that reaches this read"
            else:
                message = (
                    f"undefined value `{read.name.value}`: no assignment, parameter, global, import or builtin binds "
                    "it before this read"
                )
            ctx.report(read.name, message)

"""JIT1xx: constructs torch's frontend rejects, and generator expressions where TorchScript cannot type them.

Frontend rules (`syntax = True`) fire even inside `is_scripting()` dead branches: torch converts the whole function
before it prunes anything (rules-catalog §0.1, verified on 2.13).
"""

from __future__ import annotations

import libcst as cst

from jitlint.rules._expr import comprehension_tensor_targets, list_of_tensors_param, tensor_evident
from jitlint.rules.base import Rule, RuleContext

_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


class NoBuiltinSumOfTensors(Rule):
    code = "JIT101"
    name = "no-builtin-sum"
    severity = "error"
    message = (
        "builtin `sum()` over Tensors is not supported by TorchScript (it only sums lists of int or float); "
        "accumulate in a loop or use `torch.stack(...).sum(0)`"
    )

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if ctx.qualify(node.func) != "builtins.sum" or not node.args:
            return
        argument = node.args[0].value
        if self._sums_tensors(argument, ctx) or (len(node.args) > 1 and tensor_evident(node.args[1].value, ctx)):
            ctx.report(node)

    @staticmethod
    def _sums_tensors(argument: cst.BaseExpression, ctx: RuleContext) -> bool:
        if isinstance(argument, (cst.GeneratorExp, cst.ListComp)):
            bound = comprehension_tensor_targets(argument.for_in, ctx)
            return tensor_evident(argument.elt, ctx, bound)
        if isinstance(argument, cst.List):
            return any(tensor_evident(element.value, ctx) for element in argument.elements)
        return list_of_tensors_param(argument, ctx)


class NoComprehensionIf(Rule):
    code = "JIT102"
    name = "no-comprehension-if"
    severity = "error"
    syntax = True
    message = "comprehensions with an `if` clause are not supported by TorchScript; use a loop with `append`"

    def _check(self, node, ctx: RuleContext) -> None:
        comp = node.for_in
        while comp is not None:
            for condition in comp.ifs:
                ctx.report(condition)
            comp = comp.inner_for_in

    visit_ListComp = visit_DictComp = visit_GeneratorExp = _check


class NoMultiGeneratorComprehension(Rule):
    code = "JIT103"
    name = "no-multi-generator-comprehension"
    severity = "error"
    syntax = True
    message = "comprehensions with more than one `for` are not supported by TorchScript; use nested loops"

    def _check(self, node, ctx: RuleContext) -> None:
        if node.for_in.inner_for_in is not None:
            ctx.report(node.for_in.inner_for_in)

    visit_ListComp = visit_DictComp = visit_GeneratorExp = _check


class NoSetComprehension(Rule):
    code = "JIT104"
    name = "no-set-comprehension"
    severity = "error"
    syntax = True
    message = "set comprehensions are not supported by TorchScript (it has no set type); build a list or a dict"

    def visit_SetComp(self, node: cst.SetComp, ctx: RuleContext) -> None:
        ctx.report(node)


class NoLambda(Rule):
    code = "JIT105"
    name = "no-lambda"
    severity = "error"
    syntax = True
    message = "lambdas are not supported by TorchScript; use a named module-level function"

    def visit_Lambda(self, node: cst.Lambda, ctx: RuleContext) -> None:
        ctx.report(node)


class NoTryExcept(Rule):
    code = "JIT106"
    name = "no-try-except"
    severity = "error"
    syntax = True
    message = "`try` blocks are not supported by TorchScript; move the eager-only code into a `@torch.jit.ignore` helper"

    def visit_Try(self, node: cst.Try, ctx: RuleContext) -> None:
        ctx.report(node)

    def visit_TryStar(self, node: cst.TryStar, ctx: RuleContext) -> None:
        ctx.report(node)


class NoNestedDef(Rule):
    code = "JIT107"
    name = "no-nested-def"
    severity = "error"
    syntax = True
    message = "function definitions inside compiled code are not supported by TorchScript; define it at module level"

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # Called in the enclosing frame for a nested (uncompiled) def; a compiled function is never nested.
        if ctx.function is not None and ctx.function.info.node is not node:
            ctx.report(node.name)

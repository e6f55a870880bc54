"""JIT125: syntax torch's frontend (`torch/jit/frontend.py`) has no translation for, wherever it stands in compiled
code: a `match` statement (no `build_Match`), a bytes literal (`build_Constant` knows None, bools, numbers, str and
`...`), a unary `+` (`unop_map` has `not`, `-` and `~`; the frontend then fails on its own error range), and a name
starting with `__jit` (`build_Name` keeps that prefix for itself), and an annotated assignment to `self.x` in any
method but `__init__` (`build_AnnAssign`). The frontend reads the whole function before
anything is pruned, so these fail in `is_scripting()` branches too.
"""

from __future__ import annotations

import libcst as cst

from jitlint.rules.base import RuleContext
from jitlint.targets.script.rules import ScriptRule

_RESERVED_PREFIX = "__jit"


class NoUnsupportedSyntax(ScriptRule):
    code = "JIT125"
    name = "no-unsupported-syntax"
    severity = "error"
    summary = "`match`, bytes literals, unary `+`, names starting with `__jit`, `self.x: T = v` outside `__init__`"
    message = "syntax TorchScript's frontend cannot translate"
    fires_in_pruned = True

    def visit_Match(self, node, ctx: RuleContext) -> None:
        ctx.report(node, "`match` statements are not supported by TorchScript (torch: \"Match aren't supported\"); "
                         "use `if`/`elif`")

    def visit_SimpleString(self, node: cst.SimpleString, ctx: RuleContext) -> None:
        if "b" in node.prefix.lower():
            ctx.report(node, "bytes literals are not supported by TorchScript (torch: 'Unknown Constant expression "
                             "type'); use a str")

    def visit_UnaryOperation(self, node: cst.UnaryOperation, ctx: RuleContext) -> None:
        if isinstance(node.operator, cst.Plus):
            ctx.report(node, "unary `+` is not supported by TorchScript (its frontend has no translation for it and "
                             "fails with \"'UnaryOp' object has no attribute 'range'\"); drop the `+`")

    def visit_AnnAssign(self, node: cst.AnnAssign, ctx: RuleContext) -> None:
        target = node.target
        if node.value is None or not (isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name)
                                      and target.value.value == "self"):
            return
        function = ctx.function.info.node if ctx.function is not None else None
        if function is None or function.name.value == "__init__":
            return
        ctx.report(node.target, (
            f"TorchScript takes annotations of instance attributes only in `__init__` (torch: \"Type annotations on "
            f"instance attributes must be declared in __init__, not '{function.name.value}'\"); annotate "
            f"`self.{target.attr.value}` where `__init__` first sets it and assign it here without the annotation"))

    def visit_Name(self, node: cst.Name, ctx: RuleContext) -> None:
        if not node.value.startswith(_RESERVED_PREFIX) or not _is_expression(node, ctx.parent):
            return
        ctx.report(node, f"`{node.value}`: TorchScript keeps names starting with `__jit` for itself (torch: \"names "
                         "of variables used in JIT-ed functions can't start with __jit\"); rename it")


def _is_expression(node: cst.Name, parent: cst.CSTNode | None) -> bool:
    """Whether `node` is a variable read or stored (what the frontend builds as a Name), not the name part of an
    attribute, a parameter, a keyword argument, a definition or an import."""
    if isinstance(parent, cst.Attribute):
        return parent.value is node
    if isinstance(parent, cst.Arg):
        return parent.value is node
    return not isinstance(parent, (cst.Param, cst.FunctionDef, cst.ClassDef, cst.ImportAlias, cst.AsName,
                                   cst.NameItem, cst.Decorator))

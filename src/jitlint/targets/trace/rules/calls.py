"""TRC213, TRC302: how the model is traced, at the `torch.jit.trace(...)` call (anywhere in the linted files).

The mode at trace time is baked: dropout traced in training mode keeps dropping after `traced.eval()`, batch norm
keeps normalising with batch statistics (verified on torch 2.13). And the default `check_trace` re-traces the same
example, so it passes almost every wrong trace; `check_inputs` with another shape catches most of them."""

from __future__ import annotations

import libcst as cst

from jitlint.rules.base import RuleContext
from jitlint.targets.trace.rules import TraceRule
from jitlint.walk import walk

_TRACE_CALLS = frozenset({"torch.jit.trace", "torch.jit.trace_module", "torch.jit._trace.trace"})


def _trace_call(node: cst.Call, ctx: RuleContext) -> bool:
    return (ctx.qualify(node.func) or "") in _TRACE_CALLS


def _enclosing_function(ctx: RuleContext) -> cst.FunctionDef | cst.Module:
    for ancestor in reversed(ctx.ancestors):
        if isinstance(ancestor, cst.FunctionDef):
            return ancestor
    return ctx.module.tree


class _Uses(cst.CSTVisitor):
    """How a name is bound and used in a function before a given call: bound to a call's result, and whether a mode
    method is called on it (`model.eval()`, `model = model.eval()`, `model.train(False)`)."""

    def __init__(self, name: str, stop: cst.Call) -> None:
        self.name = name
        self.stop = stop
        self.stopped = False
        self.built = False
        self.mode_set = False

    def on_visit(self, node: cst.CSTNode) -> bool:
        if node is self.stop:
            self.stopped = True
        if self.stopped:
            return False
        if isinstance(node, cst.Assign):
            for target in node.targets:
                if isinstance(target.target, cst.Name) and target.target.value == self.name:
                    self.built = isinstance(node.value, cst.Call)
                    self.mode_set = _sets_mode(node.value)
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            if isinstance(node.func.value, cst.Name) and node.func.value.value == self.name and _sets_mode(node):
                self.mode_set = True
        return True


def _sets_mode(value: cst.BaseExpression) -> bool:
    """`Net().eval()`, `model.train(False)`: the expression puts a model in eval mode."""
    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)):
        return False
    if value.func.attr.value == "eval":
        return True
    return value.func.attr.value == "train" and bool(value.args) and (
        isinstance(value.args[0].value, cst.Name) and value.args[0].value.value == "False")


class TracedInTrainMode(TraceRule):
    code = "TRC213"
    name = "traced-in-train-mode"
    severity = "warning"
    summary = "`torch.jit.trace(model, ...)` of a model built in the same function and never put in eval mode"
    message = "a model traced in training mode: dropout and batch norm are recorded in training mode"
    scope = "anywhere"
    text_hints = ("trace",)

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if not _trace_call(node, ctx) or not node.args:
            return
        model = node.args[0].value
        if not isinstance(model, cst.Name):
            return
        uses = _Uses(model.value, node)
        walk(_enclosing_function(ctx), uses)
        if uses.built and not uses.mode_set:
            ctx.report(node, f"`{model.value}` is traced in training mode (a new module is in training mode until "
                             "`.eval()`): the traced graph records dropout and batch norm in training mode, and "
                             "`traced.eval()` does not change them (a baked mode); torch gives no warning for it (the "
                             "batch-norm check is hidden); call `.eval()` before tracing")


class CheckTraceSameInput(TraceRule):
    code = "TRC302"
    name = "check-trace-same-input"
    severity = "info"
    summary = "`torch.jit.trace(...)` without `check_inputs`: the default check re-traces the same example"
    message = "`check_trace` re-traces the same example: pass `check_inputs` of another shape"
    scope = "anywhere"
    text_hints = ("trace",)

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if not _trace_call(node, ctx):
            return
        keywords = {arg.keyword.value: arg.value for arg in node.args if arg.keyword is not None}
        check = keywords.get("check_trace")
        if "check_inputs" in keywords or (isinstance(check, cst.Name) and check.value == "False"):
            return
        ctx.report(node, "`torch.jit.trace` checks the trace by re-tracing the same example inputs: it catches "
                         "nondeterminism, not a branch, loop count or value frozen for the example's shape; pass "
                         "`check_inputs=[...]` with another batch size and length (it then reports the first "
                         "diverging operator with its line)")

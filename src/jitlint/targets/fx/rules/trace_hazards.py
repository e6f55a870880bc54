"""FX222-FX225: silent mis-traces that need no taint. symbolic_trace runs the Python of forward once and keeps only
the tensor operations it saw: what Python decided at that moment (an exception path, a counter, a random draw) is
frozen into the graph, and hooks of the traced module are never called."""

from __future__ import annotations

import libcst as cst

from jitlint.names import first_param_name
from jitlint.rules.base import RuleContext
from jitlint.targets.fx.rules import FxTraceRule

_STATE_HINT = "the GraphModule replays the value seen at trace time"


def _self_attribute(ctx: RuleContext, node: cst.BaseExpression) -> str | None:
    function = ctx.function
    if function is None or function.info.bound_first_param != "instance":
        return None
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name):
        if node.value.value == first_param_name(function.info.node):
            return node.attr.value
    return None


class TryAroundTracedCode(FxTraceRule):
    code = "FX222"
    name = "try-around-traced-code"
    severity = "warning"
    summary = "`try`/`except` around traced code: only the path taken while tracing is recorded"
    message = ("`try`/`except` in traced code: symbolic_trace records only the `try` path (a Proxy raises nothing), "
               "so the `except` path never reaches the graph")

    def visit_Try(self, node: cst.Try, ctx: RuleContext) -> None:
        if node.handlers and _has_call(node.body):
            ctx.report(node)


def _has_call(body: cst.BaseSuite) -> bool:
    found = []

    class Finder(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            found.append(node)

    body.visit(Finder())
    return bool(found)


class PythonStateInForward(FxTraceRule):
    code = "FX223"
    name = "python-state-in-forward"
    severity = "warning"
    summary = "Python state of the module changed in traced code (`self.calls += 1`): frozen into the graph"
    message = ("changes a Python attribute of the module in traced code: it runs once, while tracing, and "
               f"{_STATE_HINT}")

    def visit_AugAssign(self, node: cst.AugAssign, ctx: RuleContext) -> None:
        if _self_attribute(ctx, node.target) is not None:
            ctx.report(node)


class RandomInForward(FxTraceRule):
    code = "FX224"
    name = "random-in-forward"
    severity = "warning"
    summary = "`random.*`, `numpy.random.*` or `time.*` in traced code: evaluated once, at trace time"
    message = ("Python's `random`/`time` (or NumPy's random) in traced code is evaluated once, while tracing: "
               f"{_STATE_HINT}; use `torch.rand` and friends, which are recorded")
    text_hints = ("random", "time")

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        qualified = ctx.qualify(node.func) or ""
        if qualified.startswith(("random.", "time.", "numpy.random.")):
            ctx.report(node)


class ForwardHookOnTracedModule(FxTraceRule):
    code = "FX225"
    name = "forward-hook-on-traced-module"
    severity = "warning"
    scope = "anywhere"
    text_hints = ("register_forward",)
    summary = "a forward hook registered on a module that symbolic_trace traces through: the graph ignores it"
    message = ("a forward hook on a module symbolic_trace traces through is ignored: the GraphModule runs the "
               "traced code without it (pytorch/pytorch#105445); apply the hook's effect in forward")

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in ("register_forward_hook",
                                                                          "register_forward_pre_hook")):
            return
        if not (isinstance(func.value, cst.Name)):
            return
        # `self.register_forward_hook(...)` in a method of a module class that is traced (not a leaf).
        function = ctx.enclosing(cst.FunctionDef)
        cls_node = ctx.enclosing(cst.ClassDef)
        if function is None or cls_node is None or func.value.value != first_param_name(function):
            return
        cls = ctx.module_class(cls_node)
        if cls is None:
            return
        forward = ctx.project.find_method(cls, "forward")
        if forward is None:
            return
        entry = ctx.captured.get(forward.node)
        if entry is not None and entry.body_captured:
            ctx.report(node)

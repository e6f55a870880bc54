"""TRC207-TRC209: Python state and modes that torch.jit.trace evaluates once. The tracer runs forward a single time:
`random`/`time` values, globals and attribute counters are read once and baked, `print` and logging run only then,
in-place buffer updates advance the model's state by one step before the first real call, and the training mode
is the one at trace time (verified on torch 2.13). None of them gives a TracerWarning."""

from __future__ import annotations

import libcst as cst

from jitlint.names import first_param_name
from jitlint.rules.base import RuleContext
from jitlint.targets.trace.rules import TraceRule

_INPLACE_STATE = frozenset({
    "add_", "sub_", "mul_", "div_", "copy_", "fill_", "zero_", "clamp_", "lerp_", "addcmul_", "index_add_",
    "index_copy_", "index_fill_", "masked_fill_", "scatter_", "scatter_add_", "mul_", "set_",
})


def _self_name(ctx: RuleContext) -> str | None:
    function = ctx.function
    if function is None or function.info.bound_first_param != "instance":
        return None
    return first_param_name(function.info.node)


def _self_attribute(node: cst.BaseExpression, ctx: RuleContext) -> str | None:
    """`<name>` of `self.<name>`."""
    self_name = _self_name(ctx)
    if (self_name is not None and isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name)
            and node.value.value == self_name):
        return node.attr.value
    return None


def _registered(ctx: RuleContext, name: str) -> bool:
    for owner in ctx.function.owners if ctx.function is not None else ():
        info = ctx.project.attributes(owner).get(name)
        if info is not None and info.registered:
            return True
    return False


def _reads_self_attribute(function: cst.FunctionDef, name: str, self_name: str) -> bool:
    """Whether the function reads `self.<name>` (anywhere but as an assignment target)."""
    found = []

    class Reads(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            if node.attr.value == name and isinstance(node.value, cst.Name) and node.value.value == self_name:
                found.append(node)

        def visit_AssignTarget(self, node: cst.AssignTarget) -> bool:
            return False

    function.body.visit(Reads())
    return bool(found)


def _written_first(function: cst.FunctionDef, target: cst.BaseExpression, name: str, self_name: str) -> bool:
    """`self.<name> = ...` (`target`) is a statement of the function's own body (run on every call) and no
    statement before it reads `self.<name>`."""
    body = function.body.body if isinstance(function.body, cst.IndentedBlock) else ()
    for statement in body:
        mine = isinstance(statement, cst.SimpleStatementLine) and any(
            isinstance(small, cst.Assign) and any(t.target is target for t in small.targets) for small in statement.body)
        holder = cst.FunctionDef(name=function.name, params=function.params, body=cst.IndentedBlock(body=[statement]))
        if _reads_self_attribute(holder, name, self_name):  # (`self.x = self.x + 1` reads the last call's value)
            return False
        if mine:
            return True
    return False


class PythonStateBaked(TraceRule):
    code = "TRC207"
    name = "python-state-baked"
    severity = "warning"
    summary = ("`random.*`/`time.*` values, globals assigned in traced code, `self.<attr>` state read and written "
               "in forward: evaluated once while tracing and baked")
    message = "Python state evaluated once while tracing: its trace-time value is baked into the traced program"
    file_hooks_report_visits = True  # begin_file only resets what the visits collect

    def begin_file(self, ctx: RuleContext) -> None:
        self.globals: dict[int, set[str]] = {}

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        qualified = ctx.qualify(node.func) or ""
        module = qualified.split(".", 1)[0]
        if module in ("random", "time") and "." in qualified or qualified.startswith("numpy.random."):
            ctx.report(node, f"`{qualified}()` is Python, not a tensor op: torch.jit.trace calls it once and bakes "
                             "the value it returned into the traced program (every call then gets that value); torch "
                             "gives no warning for it; use a torch op (`torch.rand(...)`) or pass the value in as an "
                             "input")

    def visit_Global(self, node: cst.Global, ctx: RuleContext) -> None:
        if ctx.function is not None:
            self.globals.setdefault(id(ctx.function.info.node), set()).update(item.name.value for item in node.names)

    def _global(self, target: cst.BaseExpression, ctx: RuleContext) -> None:
        if ctx.function is None or not isinstance(target, cst.Name):
            return
        if target.value in self.globals.get(id(ctx.function.info.node), ()):
            ctx.report(target, (f"global `{target.value}` is changed in traced code: torch.jit.trace runs forward once "
                                "and bakes the values it read then into the traced program (later calls neither "
                                "change nor see it); torch gives no warning for it; keep the state in a registered "
                                "buffer, or outside the model"))

    def _attribute(self, target: cst.BaseExpression, ctx: RuleContext, augmented: bool) -> None:
        name = _self_attribute(target, ctx)
        if name is None or _registered(ctx, name):
            return
        if not augmented and not _reads_self_attribute(ctx.function.info.node, name, _self_name(ctx)):
            return  # written only: nothing the traced program reads back
        if not augmented and _written_first(ctx.function.info.node, target, name, _self_name(ctx)):
            return  # what the function reads back is what this call wrote: the tensors it traced
        ctx.report(target, (f"`self.{name}` is state that forward reads and changes: torch.jit.trace runs forward once, "
                            "bakes the value it read into the traced program, and the traced module never updates "
                            "it; torch gives no warning for it; keep the state in a registered buffer updated in "
                            "place, or outside the model"))

    def visit_AugAssign(self, node: cst.AugAssign, ctx: RuleContext) -> None:
        self._global(node.target, ctx)
        self._attribute(node.target, ctx, augmented=True)

    def visit_Assign(self, node: cst.Assign, ctx: RuleContext) -> None:
        for target in node.targets:
            self._global(target.target, ctx)
            self._attribute(target.target, ctx, augmented=False)


def _logger_global(node: cst.BaseExpression, ctx: RuleContext) -> bool:
    """`logger` in `logger.info(...)`: a module-level `logging.getLogger(...)`."""
    if not isinstance(node, cst.Name):
        return False
    value = ctx.module.globals.get(node.value)
    return isinstance(value, cst.Call) and (ctx.qualify(value.func) or "").startswith("logging.")


class TraceTimeSideEffect(TraceRule):
    code = "TRC208"
    name = "trace-time-side-effect"
    severity = "warning"
    summary = ("`print`/logging in traced code (runs only while tracing), in-place updates of a buffer (run once by "
               "tracing itself)")
    message = "a side effect that happens once, while torch.jit.trace runs forward"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        qualified = ctx.qualify(node.func) or ""
        func = node.func
        if qualified == "builtins.print" or qualified.startswith("logging.") or (
                isinstance(func, cst.Attribute) and _logger_global(func.value, ctx)):
            what = "`print(...)`" if qualified == "builtins.print" else "this logging call"
            ctx.report(node, f"{what} runs once, while torch.jit.trace runs forward: the traced module does not "
                             "print or log (only tensor operations are recorded); log outside the model, or return "
                             "the value")
            return
        if isinstance(func, cst.Attribute) and func.attr.value in _INPLACE_STATE:
            name = _self_attribute(func.value, ctx)
            if name is not None and _registered(ctx, name):
                ctx.report(node, f"`self.{name}.{func.attr.value}(...)` updates a buffer: the traced module keeps the "
                                 "update, but tracing runs forward once on the model's own buffer (the traced module "
                                 "shares it), so the state has advanced by one step before the first real call; "
                                 "torch gives no warning for it; reset the buffer after tracing, or trace a copy")


def _reads_self_training(test: cst.BaseExpression, ctx: RuleContext) -> bool:
    self_name = _self_name(ctx)
    found = []

    class Find(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            if node.attr.value == "training" and isinstance(node.value, cst.Name) and node.value.value == self_name:
                found.append(node)

        def visit_Lambda(self, node) -> bool:
            return False

    test.visit(Find())
    return self_name is not None and bool(found)


class BakedMode(TraceRule):
    code = "TRC209"
    name = "baked-mode"
    severity = "warning"
    summary = "a branch on `self.training`: the traced module keeps the mode it was traced in"
    message = "a branch on `self.training`: torch.jit.trace keeps only the side of the mode at trace time"

    def _check(self, test: cst.BaseExpression, ctx: RuleContext) -> None:
        if _reads_self_training(test, ctx):
            ctx.report(test, "a branch on `self.training`: torch.jit.trace records the side of the mode the model is "
                             "in when traced, and `traced.train()`/`.eval()` does not bring back the other (a baked "
                             "mode); torch gives no warning for it; trace the model in eval mode for inference and "
                             "train the eager one")

    def visit_If(self, node: cst.If, ctx: RuleContext) -> None:
        self._check(node.test, ctx)

    def visit_IfExp(self, node: cst.IfExp, ctx: RuleContext) -> None:
        self._check(node.test, ctx)

    def visit_While(self, node: cst.While, ctx: RuleContext) -> None:
        self._check(node.test, ctx)

"""DYN101-DYN103: graph breaks on tensor data. One walk over each traced function (the shared data-dependence fact,
`jitlint.facts.datadep`, with compile's policy `jitlint.targets.compile.datadep`) records where Dynamo breaks in the
judged mode; each rule reports the breaks of its kind."""

from __future__ import annotations

from typing import ClassVar

import libcst as cst

from jitlint.facts.datadep import DataDependence
from jitlint.rules.base import RuleContext
from jitlint.targets.compile.rules import CompileRule, break_cost


class _DataRule(CompileRule):
    kind: ClassVar[str]
    facts = (DataDependence,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        if ctx.function is None or ctx.function.info.node is not node:
            return
        for event in ctx.fact(DataDependence, node).events:
            if event.kind == self.kind:
                ctx.report(event.node, self.describe(event, ctx, node))

    def describe(self, event, ctx: RuleContext, function: cst.FunctionDef) -> str:
        raise NotImplementedError


class DataDependentBranch(_DataRule):
    code = "DYN101"
    name = "branch-on-tensor"
    severity = "warning"
    summary = ("`if`/`while`/conditional expression/`and`/`or`/`torch._assert` on a tensor's value, an `assert` on "
               "one with a computed message or a negated test, `all()`/`any()` "
               "over a tensor, a comprehension's `if` on a tensor's element (and, when Dynamo captures scalars, on "
               "`.item()` values and data-dependent sizes)")
    message = "Python decision on tensor data: torch.compile breaks the graph here; use `torch.cond` or `torch.where`"
    kind = "branch"

    def describe(self, event, ctx: RuleContext, function: cst.FunctionDef) -> str:
        what = "a tensor's value" if event.value == "tensor" else "a value read from tensor data"
        if isinstance(event.node, cst.Assert):
            return (f"{event.what} on {what}: Dynamo keeps an assert in the graph only in Python's plain form (a "
                    "constant message, or none), and jumps on the tensor's truth here (\"Data-dependent branching\"); "
                    f"{break_cost(ctx, event.node, function)}; give the assert a constant message and a test that is "
                    "not negated (`assert (x > 0).all(), \"...\"`)")
        return (f"{event.what} on {what}: Dynamo cannot decide it while tracing (\"Data-dependent branching\"); "
                f"{break_cost(ctx, event.node, function)}; express it with `torch.cond(pred, true_fn, false_fn, "
                "operands)` or branch-free tensor code (`torch.where`, `clamp`), or bound the value with "
                "`torch._check(...)` where a size is decided")


class TensorToPythonScalar(_DataRule):
    code = "DYN102"
    name = "scalar-from-tensor"
    severity = "warning"
    summary = ("`.item()`, `int(t)`, `float(t)`, `bool(t)`, `.tolist()` (unless Dynamo captures scalars), "
               "`torch.equal`/`allclose` and NumPy random draws without a size (always)")
    message = "a tensor's value read into Python: torch.compile breaks the graph here"
    kind = "scalar"

    def describe(self, event, ctx: RuleContext, function: cst.FunctionDef) -> str:
        cost = break_cost(ctx, event.node, function)
        if event.value == "random":
            return (f"{event.what} is a Python number: Dynamo draws it with torch ops and reads the one-element result "
                    f"into Python (\"Data dependent operator\"): {cost}, whatever the config; draw with torch "
                    "(`torch.randint(0, n, ()).item()` outside the model, or keep it a tensor), or give a `size`")
        if event.always:
            return (f"{event.what} returns a Python bool computed from the data (\"Data dependent operator\"): "
                    f"{cost}, whatever the config; compare with tensor ops (`(a == b).all()`) and keep the result a "
                    "tensor")
        return (f"{event.what} reads a tensor's value into Python (\"Unsupported Tensor.item() call with "
                f"capture_scalar_outputs=False\"): {cost}; keep it a tensor, or set "
                "`torch._dynamo.config.capture_scalar_outputs = True` (`[tool.jitlint.compile] capture-scalar-outputs "
                "= true`) to trace it as a symbol")


class DynamicOutputShape(_DataRule):
    code = "DYN103"
    name = "dynamic-shape-op"
    severity = "warning"
    summary = ("`nonzero`, boolean-mask indexing, `unique`, `masked_select`, one-argument `torch.where`, `bincount`, "
               "`nms`, also inside comprehensions (unless Dynamo captures dynamic output shapes); `F.one_hot` without "
               "`num_classes` (always)")
    message = "an op whose output size depends on the data: torch.compile breaks the graph here"
    kind = "shape"

    def describe(self, event, ctx: RuleContext, function: cst.FunctionDef) -> str:
        if event.always:
            return (f"{event.what}: the number of classes is read from the data (\"Attempted to use "
                    "`torch.nn.functional.one_hot` with data-dependent output shape\"); "
                    f"{break_cost(ctx, event.node, function)}, whatever the config; pass `num_classes`")
        return (f"{event.what}: the output's size depends on the data (\"Dynamic shape operator\"); "
                f"{break_cost(ctx, event.node, function)}; set `torch._dynamo.config.capture_dynamic_output_shape_ops "
                "= True` (`[tool.jitlint.compile] capture-dynamic-output-shape-ops = true`) to trace it with a symbolic "
                "size, or keep the shape static (`torch.where(mask, x, 0)` instead of `x[mask]`)")

"""EXP101-EXP104, EXP106: data dependence. One walk over each traced function (the shared data-dependence fact of
`jitlint.facts.datadep`, with export's policy `jitlint.targets.export.datadep`) records events; each rule below
reports the events of its kind."""

from __future__ import annotations

from typing import ClassVar

import libcst as cst

from jitlint.rules.base import RuleContext
from jitlint.facts.datadep import TENSORISH, DataDependence
from jitlint.targets.export.rules import ExportRule, in_mode, strict


class _DataRule(ExportRule):
    event: ClassVar[str]
    facts = (DataDependence,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        if ctx.function is None or ctx.function.info.node is not node or not in_mode(self, ctx):
            return
        mode = "strict" if strict(ctx) else "default"
        for event in ctx.fact(DataDependence, node).events:
            if event.kind == self.event and mode in event.modes:
                ctx.report(event.node, self.describe(event))

    def describe(self, event) -> str:
        """The message of one of this rule's events (`jitlint.targets.export.datadep.Event`)."""
        raise NotImplementedError


class DataDependentBranch(_DataRule):
    code = "EXP101"
    name = "data-dependent-branch"
    severity = "error"
    summary = "`if`/`while`/conditional expression on a tensor's value or on `.item()`/`.tolist()` data"
    message = "Python control flow on tensor data: export cannot decide it while tracing; use `torch.cond`"
    event = "branch"

    def describe(self, event) -> str:
        what = "a value read from tensor data" if event.value == "data" else "a tensor's value"
        if event.traced_too:  # `torch.cond` does not trace (TRC105): with the trace target, only branchless code serves
            return (f"{event.where} on {what}: torch.export cannot decide it while tracing (\"Could not guard on "
                    "data-dependent expression\"); use branchless tensor code (`torch.where`, `clamp`): `torch.cond` "
                    "would fail under torch.jit.trace (trace)")
        return (f"{event.where} on {what}: torch.export cannot decide it while tracing (\"Could not guard on "
                "data-dependent expression\"); use `torch.cond(pred, true_fn, false_fn, operands)` or branchless "
                "tensor code (`torch.where`, `clamp`)")


class DataDependentAssert(_DataRule):
    code = "EXP102"
    name = "data-dependent-assert"
    severity = "error"
    summary = "`assert` (default mode) / `torch._assert` on a tensor's value"
    message = "assert on tensor data: export cannot evaluate it while tracing; use `torch._assert_async`"
    event = "assert"

    def describe(self, event) -> str:
        return (f"{event.where} on a tensor's value: torch.export cannot evaluate it while tracing (\"Could not guard "
                "on data-dependent expression\"); use `torch._assert_async(cond, msg)` (checked when the program "
                "runs), or `torch._check(...)` on an `.item()` value")


class TensorToPythonNumber(_DataRule):
    code = "EXP103"
    name = "tensor-to-python-number"
    severity = "error"
    summary = "`int(tensor)`, `float(tensor)` (default mode), `range(<data>)`, `len(<data-dependent-size tensor>)`"
    message = "a tensor's value used as a Python number: export does not have it while tracing"
    event = "python-number"

    def describe(self, event) -> str:
        if event.form == "len":
            return ("`len()` of a tensor whose size depends on its data (a mask, `nonzero`, `unique`, `nms`) needs a "
                    "Python int export does not have; use `t.shape[0]` (a symbolic size) instead")
        if event.form == "range":
            return ("`range()` over a value read from tensor data needs a Python int export does not have while "
                    "tracing; loop over a tensor (`for row in t:`) or vectorise the loop")
        what = "tensor" if event.value in TENSORISH else "<value read from tensor data>"
        return (f"`{event.callee}({what})` needs a concrete value, which export does not have while tracing (\"Could "
                "not extract specialized integer from data-dependent expression\"); keep it a tensor, or use "
                "`.item()` with `torch._check(...)` bounds where a size is needed")


class NumpyInExport(_DataRule):
    code = "EXP104"
    name = "numpy-in-export"
    severity = "error"
    summary = "`.numpy()` in traced code, including `@torch.jit.ignore` bodies and `is_scripting()`-False branches"
    message = "`.numpy()` fails under default-mode torch.export; keep the computation in torch ops"
    event = "numpy"
    modes = ("default",)

    def describe(self, event) -> str:
        if event.form == "numpy-call":
            return (f"`{event.callee}` on a tensor fails under torch.export (\".numpy() is not supported for tensor "
                    "subclasses\": export traces with fake tensors); use the torch equivalent")
        return ("`.numpy()` fails under torch.export (\".numpy() is not supported for tensor subclasses\": export "
                "traces with fake tensors), also inside `@torch.jit.ignore` bodies and `is_scripting()`-False "
                "branches, which export traces; keep the computation in torch ops")


class TensorDataAttribute(_DataRule):
    code = "EXP106"
    name = "tensor-data-attribute"
    severity = "error"
    summary = "`tensor.data` in traced code"
    message = "`.data` under torch.export: use the tensor itself, or `.detach()`"
    event = "data-attribute"

    def describe(self, event) -> str:
        return ("`.data` under torch.export lifts the traced value as a constant (\"We found a fake tensor in the "
                "exported program constant's list\"); use the tensor itself, or `.detach()`")

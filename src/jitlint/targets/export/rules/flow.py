"""EXP101-EXP104, EXP106: data dependence. One walk over each traced function (the shared data-dependence fact of
`jitlint.facts.datadep`, with export's policy `jitlint.targets.export.datadep`) records events; each rule below
reports the events of its kind."""

from __future__ import annotations

from typing import ClassVar

import libcst as cst

from jitlint.rules.base import RuleContext
from jitlint.facts.datadep import DataDependence
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
                ctx.report(event.node, event.message)


class DataDependentBranch(_DataRule):
    code = "EXP101"
    name = "data-dependent-branch"
    severity = "error"
    summary = "`if`/`while`/conditional expression on a tensor's value or on `.item()`/`.tolist()` data"
    message = "Python control flow on tensor data: export cannot decide it while tracing; use `torch.cond`"
    event = "branch"


class DataDependentAssert(_DataRule):
    code = "EXP102"
    name = "data-dependent-assert"
    severity = "error"
    summary = "`assert` (default mode) / `torch._assert` on a tensor's value"
    message = "assert on tensor data: export cannot evaluate it while tracing; use `torch._assert_async`"
    event = "assert"


class TensorToPythonNumber(_DataRule):
    code = "EXP103"
    name = "tensor-to-python-number"
    severity = "error"
    summary = "`int(tensor)`, `float(tensor)` (default mode), `range(<data>)`, `len(<data-dependent-size tensor>)`"
    message = "a tensor's value used as a Python number: export does not have it while tracing"
    event = "python-number"


class NumpyInExport(_DataRule):
    code = "EXP104"
    name = "numpy-in-export"
    severity = "error"
    summary = "`.numpy()` in traced code, including `@torch.jit.ignore` bodies and `is_scripting()`-False branches"
    message = "`.numpy()` fails under default-mode torch.export; keep the computation in torch ops"
    event = "numpy"
    modes = ("default",)


class TensorDataAttribute(_DataRule):
    code = "EXP106"
    name = "tensor-data-attribute"
    severity = "error"
    summary = "`tensor.data` in traced code"
    message = "`.data` under torch.export: use the tensor itself, or `.detach()`"
    event = "data-attribute"

"""DYN114: tensor calls and attribute assignments TorchDynamo refuses in every mode (torch 2.13's handlers in
torch/_dynamo/variables/torch.py, tensor.py and builtin.py): a break in the default mode, an error under
`fullgraph=True`. Found by the data-dependence walk (`jitlint.targets.compile.datadep`), which knows which values are
tensors."""

from __future__ import annotations

import libcst as cst

from jitlint.facts.datadep import DataDependence
from jitlint.rules.base import RuleContext
from jitlint.targets.compile.rules import CompileRule, break_cost

# What each refusal is: the code, torch's message (the graph-break type), and the fix torch's hints suggest.
_REFUSALS = {
    "requires-grad-creation": (
        "a tensor created with `requires_grad=True`",
        "Attempted to use tensor creation function with requires_grad=True",
        "create it outside the compiled region (an `nn.Parameter` or a buffer made in `__init__`), or drop "
        "`requires_grad=True`"),
    "inference-mode": (
        "`torch.is_inference_mode_enabled()`", "Encountered torch.is_inference_mode_enabled during tracing",
        "decide it outside the compiled region and pass the result in"),
    "is_inference": (
        "`.is_inference()`", "Encountered tensor.is_inference() during tracing",
        "decide it outside the compiled region and pass the result in"),
    "random_": (
        "`.random_()`", "Tensor.random_ op",
        "use the out-of-place `torch.randint(low, high, size)` (or `torch.randint_like`)"),
    "requires-grad-set": (
        "assigning a tensor's `requires_grad`", "setattr() on Tensor.requires_grad",
        "set it outside the compiled region, or use `.detach()` for a tensor that must not require grad"),
    "assert-tensors": (
        "`assert` on a sequence of tensors (Dynamo makes it `torch._assert_async(torch.scalar_tensor(...))`)",
        "TypeError when making fake tensor call",
        "assert on what Dynamo can evaluate (`assert len(xs) > 0`)"),
    "assert-objects": (
        "`assert` on a tuple of objects (Dynamo makes it `torch._assert_async(torch.scalar_tensor(...))`)",
        "Failed to convert args/kwargs to proxy",
        "assert on what Dynamo can evaluate (`assert len(args) > 0`)"),
    "data-ptr": (
        "comparing the `data_ptr()`s of two tensors", "Data pointer comparison",
        "Dynamo decides it only for the same tensor: compare outside the compiled region"),
}


class RefusedTensorCall(CompileRule):
    code = "DYN114"
    name = "refused-tensor-call"
    severity = "warning"
    summary = ("tensor calls Dynamo refuses in every mode: creation with `requires_grad=True`, `.random_()`, "
               "`.is_inference()`, `torch.is_inference_mode_enabled()`, assigning `requires_grad`, comparing "
               "`data_ptr()`s")
    message = "a tensor operation TorchDynamo refuses: torch.compile breaks the graph here"
    facts = (DataDependence,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        if ctx.function is None or ctx.function.info.node is not node:
            return
        for event in ctx.fact(DataDependence, node).events:
            if event.kind == "refused":
                what, reason, fix = _REFUSALS[event.what]
                ctx.report(event.node, (f"{what}: Dynamo refuses it (\"{reason}\"), whatever the config; "
                                        f"{break_cost(ctx, event.node, node)}; {fix}"))

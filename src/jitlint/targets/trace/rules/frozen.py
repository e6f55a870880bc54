"""TRC201-TRC206, TRC212, TRC105: what the shared data-dependence fact (`jitlint.facts.datadep`, with the trace
policy of `jitlint.targets.trace.datadep`) records as frozen in a traced function. Each rule reports the events of
its kind, worded here: what is frozen, whether torch warns about it, and what traces instead."""

from __future__ import annotations

from typing import ClassVar

import libcst as cst

from jitlint.facts.datadep import DataDependence
from jitlint.rules.base import RuleContext
from jitlint.targets.trace.datadep import Frozen
from jitlint.targets.trace.rules import TraceRule, torch_says

_SCRIPT_IF_TRACING = "a `@torch.jit.script_if_tracing` function (TorchScript keeps the control flow inside a trace)"


def _scripted_escape(ctx: RuleContext, value: str) -> bool:
    """Whether to offer `@torch.jit.script_if_tracing`: not for a decision on tensor data when the export target is
    enabled too, since export runs that function's Python and rejects the data-dependent branch there."""
    return not ("export" in ctx.targets and value in ("tensor", "data"))


class _FrozenRule(TraceRule):
    event: ClassVar[str]
    facts = (DataDependence,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        if ctx.function is None or ctx.function.info.node is not node:
            return
        for event in ctx.fact(DataDependence, node).events:
            if isinstance(event, Frozen) and event.kind == self.event:
                ctx.report(event.node, self.describe(event, ctx))

    def describe(self, event: Frozen, ctx: RuleContext) -> str:
        raise NotImplementedError


def _what(value: str) -> str:
    return {"tensor": "a tensor's value", "size": "a traced size", "data": "a value read from tensor data",
            "prop": "the input's rank, dtype or device (a plain Python value while tracing)"}.get(value, "a traced value")


class FrozenBranch(_FrozenRule):
    code = "TRC201"
    name = "frozen-branch"
    severity = "warning"
    summary = ("`if`/`assert`/conditional expression/`min`/`max` on a tensor, a traced size, or the input's rank or "
               "dtype: only the example's side is recorded")
    message = "a branch on a traced value: torch.jit.trace records only the side the example takes"
    event = "branch"

    def describe(self, event: Frozen, ctx: RuleContext) -> str:
        says = torch_says(ctx, event.warning, event.inside_torch)
        if event.how in ("assert", "torch._assert"):
            return (f"`{event.how}` on {_what(event.value)} is evaluated once while tracing: the traced module never "
                    f"checks it again (a frozen check); {says}; check inputs outside the traced model")
        if event.how in ("min", "max"):
            return (f"`{event.how}()` compares {_what(event.value)} in Python: torch.jit.trace freezes the comparison "
                    f"(the operand it returns stays traced, so the result is right only while the same operand wins: a "
                    f"frozen branch); {says}; compute it with tensor ops (`torch.clamp`, `torch.minimum`) or in "
                    f"{_SCRIPT_IF_TRACING}")
        if event.value == "prop":
            return (f"`{event.how}` on {_what(event.value)}: torch.jit.trace records only the side the example "
                    f"takes, for every later input (a frozen branch); {says}; trace one module per rank/dtype, or "
                    f"decide it in {_SCRIPT_IF_TRACING}")
        escape = f" or decide it in {_SCRIPT_IF_TRACING}" if _scripted_escape(ctx, event.value) else ""
        return (f"`{event.how}` on {_what(event.value)}: torch.jit.trace records only the side the example takes, "
                f"for every later input (a frozen branch); {says}; keep both sides in tensor ops (`torch.where`)"
                f"{escape}")


class FrozenLoopCount(_FrozenRule):
    code = "TRC202"
    name = "frozen-loop-count"
    severity = "warning"
    summary = ("`range()` over a traced size or a value read from a tensor, `while` on a tensor, iterating a tensor "
               "or `.tolist()`: unrolled to the example's count")
    message = "a loop whose count depends on the input: torch.jit.trace unrolls it to the example's count"
    event = "loop"

    def describe(self, event: Frozen, ctx: RuleContext) -> str:
        says = torch_says(ctx, event.warning, event.inside_torch)
        if event.how == "while":
            what = f"`while` on {_what(event.value)}"
        elif event.how == "iterate":
            what = "iterating over a tensor"
        elif event.how == "tolist":
            what = "a loop over `.tolist()` (its length and values are read once)"
        else:
            what = f"`range()` over {_what(event.value)}"
            if event.value == "data":
                says = "the value was read from the tensor earlier (and baked there)"
        escape = f" or put it in {_SCRIPT_IF_TRACING}" if _scripted_escape(ctx, event.value) else ""
        return (f"{what}: torch.jit.trace unrolls the loop to the example's iteration count (a frozen loop count), so "
                f"an input of another size runs the example's count; {says}; vectorise the loop (one tensor op over "
                f"the dimension){escape}")


class BakedPythonValue(_FrozenRule):
    code = "TRC203"
    name = "baked-python-value"
    severity = "warning"
    summary = ("`.item()`, `.tolist()`, `int()`/`float()` of a tensor or a traced size, `len(tensor)`, `math.*` of a "
               "size, a Python list indexed by a size: a constant of the traced program")
    message = "a Python value computed from a traced value: torch.jit.trace bakes the example's value"
    event = "value"

    def describe(self, event: Frozen, ctx: RuleContext) -> str:
        says = torch_says(ctx, event.warning, event.inside_torch)
        how = event.how
        if how == "item":
            what, instead = "`.item()` reads the tensor's value", "keep it a tensor (a 0-dim tensor broadcasts)"
        elif how == "tolist":
            what, instead = "`.tolist()` reads the tensor's values", "keep them in a tensor"
        elif how == "len":
            what, instead = "`len()` of a tensor is a Python int", "use `x.shape[0]` (a traced size)"
        elif how == "index":
            what, instead = "a Python list or tuple indexed by a traced size", "index a tensor instead"
        elif how.startswith("math."):
            what = f"`{how}()` of {_what(event.value)} gives a Python float"
            instead = "use tensor arithmetic (`x.size(-1) ** -0.5` stays traced)"
        else:
            what = f"`{how}()` of {_what(event.value)} gives a Python number"
            instead = ("pass the size itself to the op that needs it (`torch.zeros(x.shape[0], 1)`, `x.view(n, -1)` "
                       "take traced sizes)" if event.value == "size" else "keep it a tensor")
        return (f"{what} once, while tracing: the traced program keeps the example's value as a constant (a baked "
                f"Python value); {says}; {instead}")


class NumpyBaked(_FrozenRule):
    code = "TRC204"
    name = "numpy-baked"
    severity = "warning"
    summary = "NumPy on a tensor or a traced size (`.numpy()`, `np.*`): the example's result becomes a constant"
    message = "NumPy in traced code: the example's result is baked into the traced program"
    event = "numpy"

    def describe(self, event: Frozen, ctx: RuleContext) -> str:
        says = torch_says(ctx, event.warning, event.inside_torch)
        return (f"`{event.how}` on {_what(event.value)}: the tracer cannot record NumPy, so the example's result is "
                f"baked into the traced program as a constant (also inside `@torch.jit.ignore` bodies and "
                f"`is_scripting()`-False branches, which trace runs); {says}; use the torch equivalent")


class HiddenLibraryConversion(_FrozenRule):
    code = "TRC206"
    name = "hidden-library-conversion"
    severity = "warning"
    summary = ("a traced size given to a library function that reads it as a plain number (`split`, `chunk`, `roll`, "
               "a lone pool size, einx's operations)")
    message = "a library function reads this traced size as a plain number: baked, and no warning shows it here"
    event = "library"

    def describe(self, event: Frozen, ctx: RuleContext) -> str:
        conversion = event.library
        if conversion is None:
            return (f"`{event.how}` with a traced size converts it inside torch: the size is baked; "
                    f"{torch_says(ctx, event.warning, True)}")
        if conversion.warns == "library":
            what = ("the shapes of its traced tensor arguments" if event.value == "tensor"
                    else "the traced size given as an axis length")
            return (f"`{event.how}()` converts {what} to Python ints ({conversion.where}): the traced graph keeps the "
                    f"example's sizes, and an input of another size gets wrong results or fails when the traced "
                    f"module runs; torch warns (\"{event.warning}...\") at the library's own line, not at this one; "
                    f"{conversion.instead}")
        says = torch_says(ctx, event.warning, True) if conversion.warns == "torch" else "torch gives no warning for it"
        return (f"`{event.how}` with a traced size: {conversion.where}, so the size is baked, and an input of "
                f"another size gets the example's result shape or fails when the traced module runs; {says}; "
                f"{conversion.instead}")


class DataAttributeBaked(_FrozenRule):
    code = "TRC212"
    name = "data-attribute-baked"
    severity = "warning"
    summary = "`x.data` of a traced tensor: the example tensor is recorded as a constant"
    message = "`x.data` under torch.jit.trace records the example tensor as a constant"
    event = "data-attribute"

    def describe(self, event: Frozen, ctx: RuleContext) -> str:
        return ("`.data` of a traced tensor leaves the trace: torch.jit.trace records the example's tensor as a "
                "constant, and the traced module computes the example's result for every input; torch gives no "
                "warning for it; use `.detach()`")


class BakedDevice(_FrozenRule):
    code = "TRC205"
    name = "baked-device-or-dtype"
    severity = "warning"
    summary = ("`device=x.device`, `.to(x.device)`, `.cuda()`, `.cpu()`, device literals, `dtype=x.dtype`: the "
               "trace-time device or dtype is a constant of the graph (off unless selected)")
    message = "a device or dtype taken while tracing is recorded as a constant of the traced graph"
    event = "device"
    default_enabled = False

    def describe(self, event: Frozen, ctx: RuleContext) -> str:
        if event.how == "dtype":
            return ("`dtype=` taken from an input is recorded as the example's dtype (a constant of the graph): an "
                    "input of another dtype gets a tensor of the example's; torch gives no warning for it; use "
                    "`x.new_zeros(...)`/`torch.zeros_like(x)`, which follow the input")
        return (f"{'`' + event.how + '`' if event.how.startswith('.') else 'a device taken from a tensor or a literal'}"
                f" is recorded as the trace-time device (a constant of the graph, with the dtype): the traced module "
                f"creates or moves tensors there whatever device its inputs are on; torch gives no warning for it; "
                f"trace on the device you run on, or use `x.new_*`/`*_like` factories")


class ExportRemedyUnderTrace(_FrozenRule):
    code = "TRC105"
    name = "export-remedy-under-trace"
    severity = "error"
    summary = "`torch.cond`, and `torch._check` on a traced size or tensor: they do not trace"
    message = "an export-era construct that torch.jit.trace rejects"
    event = "remedy"

    def describe(self, event: Frozen, ctx: RuleContext) -> str:
        if "cond" in event.how and "check" not in event.how:
            escape = f" or in {_SCRIPT_IF_TRACING}" if _scripted_escape(ctx, "tensor") else ""
            return ("`torch.cond` does not trace (\"Detected that you are using FX to torch.jit.trace a "
                    "dynamo-optimized function\"); under trace, keep a data-dependent branch in branchless tensor "
                    f"code (`torch.where`){escape}")
        return (f"`{event.how}` needs a Python bool, but under torch.jit.trace a comparison of {_what(event.value)} "
                "is a tensor (\"cond must be a bool, but got a Tensor\"); drop the check from traced code or use "
                "`torch._assert_async` on a tensor condition")


class SizeWherePythonNeedsANumber(_FrozenRule):
    code = "TRC106"
    name = "traced-size-needs-a-number"
    severity = "error"
    summary = ("`round()`/`divmod()` of a traced size, or a lone size given to a 2-d/3-d adaptive pool: a traced "
               "size is a 0-dim tensor while tracing, and torch.jit.trace raises")
    message = "a traced size where Python needs a number: torch.jit.trace raises here"
    event = "rejected"

    def describe(self, event: Frozen, ctx: RuleContext) -> str:
        if event.library is not None:
            return (f"`{event.how}` with a traced size: {event.library.where}; under torch.jit.trace a size is a "
                    f"0-dim tensor, so tracing raises; {event.library.instead}")
        return (f"`{event.how}()` of a traced size: under torch.jit.trace a size is a 0-dim tensor, which has no "
                f"`__{event.how}__` (\"type Tensor doesn't define __round__ method\"), so tracing raises (eager, "
                f"where sizes are ints, does not); use tensor arithmetic that stays traced (`(n + 1) // 2` for "
                f"`round(n / 2)`), or `int(n)` first if the example's value may be a constant")

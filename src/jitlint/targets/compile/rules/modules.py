"""DYN110-DYN112: submodules TorchDynamo cannot trace into, called in traced code: recurrent layers (`nn.LSTM`,
`nn.GRU`, `nn.RNN`), TorchScript modules (`torch.jit.script`) and traced modules (`torch.jit.trace`). What a
submodule attribute holds comes from the class's `__init__` (the project index)."""

from __future__ import annotations

import libcst as cst

from jitlint.rules.base import RuleContext
from jitlint.targets.compile.policy import RECURRENT
from jitlint.targets.compile.rules import CompileRule, break_cost, eager_cost

_RECURRENT = RECURRENT
_SCRIPTED = frozenset({"torch.jit.script", "torch.jit.freeze"})
_TRACED = frozenset({"torch.jit.trace", "torch.jit.trace_module"})


def _called_submodule(node: cst.Call, ctx: RuleContext) -> tuple[str, frozenset[str]] | None:
    """For `self.<name>(...)`: the attribute's name and the qualified names of what `__init__` assigns it."""
    found = ctx.self_attribute(node.func)
    if found is None:
        return None
    name, info = found
    return name, info.constructors


class RecurrentModuleCall(CompileRule):
    code = "DYN110"
    name = "rnn-module-call"
    severity = "warning"
    summary = "calling an `nn.LSTM`, `nn.GRU` or `nn.RNN` submodule in traced code"
    message = "Dynamo does not trace `nn.LSTM`/`nn.GRU`/`nn.RNN`: the whole function falls back to eager"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        found = _called_submodule(node, ctx)
        if found is None or not found[1] & _RECURRENT:
            return
        name, constructors = found
        layer = sorted(constructors & _RECURRENT)[0].rpartition(".")[2]
        ctx.report(node, (
            f"`self.{name}` is an `nn.{layer}`: Dynamo does not support RNN, GRU or LSTM (\"Attempted to wrap RNN, "
            f"GRU, or LSTM\"); {eager_cost(ctx)}; set `torch._dynamo.config.allow_rnn = True` to trace it, or "
            "write the recurrence with `nn.LSTMCell`/`nn.GRUCell` in a loop"))


class ScriptedSubmoduleCall(CompileRule):
    code = "DYN111"
    name = "scripted-submodule-call"
    severity = "warning"
    summary = "calling a `torch.jit.script`-ed submodule in traced code (the whole function falls back to eager)"
    message = "Dynamo does not trace a TorchScript module: the whole function falls back to eager"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        found = _called_submodule(node, ctx)
        if found is None or not found[1] & _SCRIPTED:
            return
        ctx.report(node, (
            f"`self.{found[0]}` holds a `torch.jit.script`-ed module, which runs in the TorchScript interpreter "
            f"(\"torch.jit.script/freeze modules unsupported\"); {eager_cost(ctx)}; assign the eager module (script "
            "the whole model only where TorchScript is needed)"))


class TracedSubmoduleCall(CompileRule):
    code = "DYN112"
    name = "traced-submodule-call"
    severity = "warning"
    summary = "calling a `torch.jit.trace`-d submodule in traced code"
    message = "Dynamo does not trace into a `torch.jit.trace`-d module: torch.compile breaks the graph here"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        found = _called_submodule(node, ctx)
        if found is None or not found[1] & _TRACED:
            return
        ctx.report(node, (
            f"`self.{found[0]}` holds a `torch.jit.trace`-d module, whose call Dynamo skips (\"Attempted to inline "
            f"function marked as skipped\"); {break_cost(ctx, node)}; assign the eager module"))

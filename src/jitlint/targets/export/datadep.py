"""torch.export's policy for the shared data-dependence fact (`jitlint.facts.datadep`).

Export runs the model on fake tensors. Shapes are symbols it can reason about (a branch on `x.shape[0]`
specialises or guards); values read from tensor data (`.item()`, `.tolist()`, a reduction used as a bool,
`int(tensor)`) are unknown at trace time: export stops when Python needs them as a bool or a concrete int
(verified on torch 2.13). The policy keeps the base's view of sizes (only a size of a tensor whose shape depends on
its data is data) and records the events that the rules of `jitlint.targets.export.rules.flow` report.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from jitlint.facts.datadep import DEPENDENT, TENSORISH, DatadepDomain, DatadepPolicy
from jitlint.facts.flow import Frame, Reads


@dataclass(frozen=True)
class Event:
    """Something a rule reports: `kind` names the rule (see `jitlint.targets.export.rules.flow`)."""

    kind: str  # "branch", "assert", "python-number", "numpy", "data-attribute"
    node: cst.CSTNode
    message: str
    # The export modes that reject it (measured on torch 2.13): strict mode traces `int(tensor)` and `assert`
    # (as `_assert_async`), but not `range(<data>)`, `len(<data-sized tensor>)` nor `torch._assert`.
    modes: tuple[str, ...] = ("default", "strict")


class ExportDatadep(DatadepPolicy):
    def __init__(self) -> None:
        super().__init__()
        self._reported: set[int] = set()

    def _event(self, kind: str, node: cst.CSTNode, message: str, modes=("default", "strict")) -> None:
        if id(node) not in self._reported:
            self._reported.add(id(node))
            self.events.append(Event(kind, node, message, modes))

    def _truth(self, domain: DatadepDomain, test: cst.BaseExpression, frame: Frame, where: str) -> None:
        value = domain.kind(test, frame)
        if value in DEPENDENT:
            self._event("branch", test, _branch_message(where, value, "trace" in domain.ctx.targets))

    def _calls(self, domain: DatadepDomain, reads: Reads, frame: Frame) -> None:
        for call in reads.calls:
            func = call.func
            qualified = domain.imports.qualify(func) or ""
            args = [arg for arg in call.args if not arg.star]
            if qualified in ("builtins.int", "builtins.float") and args:
                value = domain.kind(args[0].value, frame)
                if value in DEPENDENT:
                    what = "tensor" if value in TENSORISH else "<value read from tensor data>"
                    self._event("python-number", call, (
                        f"`{qualified[9:]}({what})` needs a concrete value, which export does not have while tracing "
                        "(\"Could not extract specialized integer from data-dependent expression\"); keep it a tensor, "
                        "or use `.item()` with `torch._check(...)` bounds where a size is needed"), ("default",))
            elif qualified == "builtins.bool" and args:
                if domain.kind(args[0].value, frame) in TENSORISH:
                    self._event("branch", call, _branch_message("`bool(...)`", "tensor", "trace" in domain.ctx.targets))
            elif qualified == "builtins.len" and args:
                if domain.kind(args[0].value, frame) == "ddtensor":
                    self._event("python-number", call, (
                        "`len()` of a tensor whose size depends on its data (a mask, `nonzero`, `unique`, `nms`) needs "
                        "a Python int export does not have; use `t.shape[0]` (a symbolic size) instead"), ("default",))
            elif qualified == "builtins.range":
                if any(domain.kind(arg.value, frame) == "data" for arg in args):
                    self._event("python-number", call, (
                        "`range()` over a value read from tensor data needs a Python int export does not have "
                        "while tracing; loop over a tensor (`for row in t:`) or vectorise the loop"))
            elif qualified == "torch._assert" and args:
                if domain.kind(args[0].value, frame) in DEPENDENT:
                    self._event("assert", call, _assert_message("`torch._assert`"))
            elif qualified.startswith("numpy.") and any(domain.kind(arg.value, frame) in TENSORISH for arg in args):
                self._event("numpy", call, (
                    f"`{qualified}` on a tensor fails under torch.export (\".numpy() is not supported for tensor "
                    "subclasses\": export traces with fake tensors); use the torch equivalent"))
            elif isinstance(func, cst.Attribute) and func.attr.value == "numpy" and not call.args:
                if domain.kind(func.value, frame) not in ("shape", "ddshape", "device", "datalist", "data"):
                    self._event("numpy", call, (
                        "`.numpy()` fails under torch.export (\".numpy() is not supported for tensor subclasses\": "
                        "export traces with fake tensors), also inside `@torch.jit.ignore` bodies and "
                        "`is_scripting()`-False branches, which export traces; keep the computation in torch ops"))

    def _attributes(self, domain: DatadepDomain, reads: Reads, frame: Frame) -> None:
        for attribute in reads.attributes:
            if attribute.attr.value == "data" and domain.kind(attribute.value, frame) in TENSORISH:
                self._event("data-attribute", attribute, (
                    "`.data` under torch.export lifts the traced value as a constant (\"We found a fake tensor in "
                    "the exported program constant's list\"); use the tensor itself, or `.detach()`"))

    def read(self, domain: DatadepDomain, reads: Reads, statement: cst.CSTNode, frame: Frame) -> None:
        self._calls(domain, reads, frame)
        self._attributes(domain, reads, frame)
        for expression in reads.if_expressions:
            self._truth(domain, expression.test, frame, "a conditional expression")
        if isinstance(statement, cst.If):
            self._truth(domain, statement.test, frame, "`if`")
        elif isinstance(statement, cst.While):
            self._truth(domain, statement.test, frame, "`while`")

    def asserted(self, domain: DatadepDomain, node: cst.Assert, frame: Frame) -> None:
        if domain.kind(node.test, frame) in DEPENDENT:
            self._event("assert", node.test, _assert_message("`assert`"), ("default",))


def _branch_message(where: str, value: str | None, traced_too: bool = False) -> str:
    what = "a value read from tensor data" if value == "data" else "a tensor's value"
    if traced_too:  # `torch.cond` does not trace (TRC105): with the trace target too, only branchless code serves both
        return (f"{where} on {what}: torch.export cannot decide it while tracing (\"Could not guard on data-dependent "
                "expression\"); use branchless tensor code (`torch.where`, `clamp`): `torch.cond` would fail under "
                "torch.jit.trace (trace)")
    return (f"{where} on {what}: torch.export cannot decide it while tracing (\"Could not guard on data-dependent "
            "expression\"); use `torch.cond(pred, true_fn, false_fn, operands)` or branchless tensor code "
            "(`torch.where`, `clamp`)")


def _assert_message(where: str) -> str:
    return (f"{where} on a tensor's value: torch.export cannot evaluate it while tracing (\"Could not guard on "
            "data-dependent expression\"); use `torch._assert_async(cond, msg)` (checked when the program runs), or "
            "`torch._check(...)` on an `.item()` value")

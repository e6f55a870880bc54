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
    """Something a rule reports: `kind` names the rule (see `jitlint.targets.export.rules.flow`), `form` what the code
    does (the rule words the message from it), and the parts the message names."""

    kind: str  # "branch", "assert", "python-number", "numpy", "data-attribute"
    node: cst.CSTNode
    form: str  # "if", "bool", "int", "len", "range", "torch._assert", "assert", "numpy-call", "numpy-method", "data"
    # The export modes that reject it (measured on torch 2.13): strict mode traces `int(tensor)` and `assert`
    # (as `_assert_async`), but not `range(<data>)`, `len(<data-sized tensor>)` nor `torch._assert`.
    modes: tuple[str, ...] = ("default", "strict")
    where: str = ""  # for a branch: "`if`", "`while`", "a conditional expression", "`bool(...)`"
    value: str | None = None  # the kind of the value decided on or converted ("data", "tensor", ...)
    callee: str = ""  # the qualified name called (`int`, `numpy.<name>`)
    traced_too: bool = False  # the trace target is enabled too (its advice must not be `torch.cond`)


class ExportDatadep(DatadepPolicy):
    def __init__(self) -> None:
        super().__init__()
        self._reported: set[int] = set()

    def _event(self, kind: str, node: cst.CSTNode, form: str, modes=("default", "strict"), **parts) -> None:
        if id(node) not in self._reported:
            self._reported.add(id(node))
            self.events.append(Event(kind, node, form, modes, **parts))

    def _truth(self, domain: DatadepDomain, test: cst.BaseExpression, frame: Frame, where: str) -> None:
        value = domain.kind(test, frame)
        if value in DEPENDENT:
            self._event("branch", test, "if", where=where, value=value, traced_too="trace" in domain.ctx.targets)

    def _calls(self, domain: DatadepDomain, reads: Reads, frame: Frame) -> None:
        for call in reads.calls:
            func = call.func
            qualified = domain.imports.qualify(func) or ""
            args = [arg for arg in call.args if not arg.star]
            if qualified in ("builtins.int", "builtins.float") and args:
                value = domain.kind(args[0].value, frame)
                if value in DEPENDENT:
                    self._event("python-number", call, "int", ("default",), value=value, callee=qualified[9:])
            elif qualified == "builtins.bool" and args:
                if domain.kind(args[0].value, frame) in TENSORISH:
                    self._event("branch", call, "bool", where="`bool(...)`", value="tensor",
                                traced_too="trace" in domain.ctx.targets)
            elif qualified == "builtins.len" and args:
                if domain.kind(args[0].value, frame) == "ddtensor":
                    self._event("python-number", call, "len", ("default",))
            elif qualified == "builtins.range":
                if any(domain.kind(arg.value, frame) == "data" for arg in args):
                    self._event("python-number", call, "range")
            elif qualified == "torch._assert" and args:
                if domain.kind(args[0].value, frame) in DEPENDENT:
                    self._event("assert", call, "torch._assert", where="`torch._assert`")
            elif qualified.startswith("numpy.") and any(domain.kind(arg.value, frame) in TENSORISH for arg in args):
                self._event("numpy", call, "numpy-call", callee=qualified)
            elif isinstance(func, cst.Attribute) and func.attr.value == "numpy" and not call.args:
                if domain.kind(func.value, frame) not in ("shape", "ddshape", "device", "datalist", "data"):
                    self._event("numpy", call, "numpy-method")

    def _attributes(self, domain: DatadepDomain, reads: Reads, frame: Frame) -> None:
        for attribute in reads.attributes:
            if attribute.attr.value == "data" and domain.kind(attribute.value, frame) in TENSORISH:
                self._event("data-attribute", attribute, "data")

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
            self._event("assert", node.test, "assert", ("default",), where="`assert`")

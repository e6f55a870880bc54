"""FX2xx: what `torch.fx.symbolic_trace` rejects or silently mis-traces, in the code it runs.

One Proxy-taint walk over each traced function (`jitlint.targets.fx.taint`) records its sinks; each rule below
reports the sinks of its kind. The hazards that need no taint (try/except, Python state, random draws, hooks)
are plain visitors at the end.
"""

from __future__ import annotations

from typing import ClassVar

import libcst as cst

from jitlint.facts import Fact
from jitlint.rules.base import RuleContext
from jitlint.targets.fx import taint
from jitlint.targets.fx.rules import FxTraceRule


class TaintSinks(Fact):
    """The sinks of a traced function (read where the walk is at its `def`). The taint analysis behind it is kept for
    the run by the policy (`taint.analyse`): a function's parameters take their taint from its callers, anywhere."""

    @classmethod
    def compute(cls, ctx: RuleContext, node: cst.FunctionDef) -> list[taint.Sink]:
        entry = ctx.function
        if entry is None or entry.info.node is not node or not entry.body_captured:
            return []
        analysis = taint.analyse(ctx.captured.policy, entry)
        return analysis.sinks if analysis is not None else []


class _SinkRule(FxTraceRule):
    sink: ClassVar[str]
    facts = (TaintSinks,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        for sink in ctx.fact(TaintSinks, node):
            if sink.kind == self.sink:
                ctx.report(sink.node, sink.message)


class ProxyAsBool(_SinkRule):
    code = "FX201"
    name = "proxy-as-bool"
    severity = "error"
    sink = taint.BOOL
    summary = "a traced value (Proxy) used as a Python bool: `if`, `while`, `and`/`or`/`not`, ternary, `assert`"
    message = "a Proxy used as a Python bool: symbolic_trace cannot follow control flow on traced values"


class BuiltinOnProxy(_SinkRule):
    code = "FX202"
    name = "builtin-on-proxy"
    severity = "error"
    sink = taint.BUILTIN
    summary = "builtin `len`/`int`/`float`/`range`/`max`/`min`/`round` (and `torch.tensor([p])`) applied to a Proxy"
    message = "a builtin that needs a concrete value applied to a Proxy"


class ProxyIteration(_SinkRule):
    code = "FX203"
    name = "proxy-iteration"
    severity = "error"
    sink = taint.ITERATE
    summary = "a Proxy iterated: `for`, comprehension, `*p`, `**p`, `a, *rest = p`, `list(p)`, `zip(p, ...)`"
    message = "a Proxy iterated: symbolic_trace cannot iterate a traced value"


class ConcreteIndexedByProxy(_SinkRule):
    code = "FX204"
    name = "concrete-indexed-by-proxy"
    severity = "error"
    sink = taint.INDEX
    summary = "a Python list/tuple/dict, ModuleList or buffer indexed or sliced by a Proxy"
    message = "a concrete container indexed or sliced by a Proxy"


class ProxyItemAssignment(_SinkRule):
    code = "FX205"
    name = "proxy-item-assignment"
    severity = "error"
    sink = taint.ITEM_ASSIGN
    summary = "item assignment on a Proxy (`x[:, 0] = v`)"
    message = "item assignment on a Proxy"


class VarargsFactoryProxySize(_SinkRule):
    code = "FX206"
    name = "varargs-factory-proxy-size"
    severity = "error"
    sink = taint.FACTORY
    summary = "`torch.zeros/ones/empty/rand/randn(p, ...)` with separate size arguments, a Proxy first"
    message = "a tensor factory given separate size arguments with a Proxy first"


class FinfoOfProxy(_SinkRule):
    code = "FX207"
    name = "finfo-of-proxy"
    severity = "error"
    sink = taint.FINFO
    summary = "`torch.finfo(x.dtype)` of a traced value's dtype"
    message = "`torch.finfo` of a Proxy dtype"


class ModuleBuiltInForward(_SinkRule):
    code = "FX208"
    name = "module-built-in-forward"
    severity = "error"
    sink = taint.MODULE_IN_FORWARD
    summary = "a module constructed inside traced code and called there (`nn.ReLU()(x)`)"
    message = "calls a module built inside the traced function"


class ScriptFunctionOnProxy(_SinkRule):
    code = "FX209"
    name = "script-function-on-proxy"
    severity = "error"
    sink = taint.SCRIPT_CALL
    summary = "a `@torch.jit.script` function called with a Proxy"
    message = "a `torch.jit.script` function called with a Proxy"


class NumpyOnProxy(_SinkRule):
    code = "FX210"
    name = "numpy-on-proxy"
    severity = "error"
    sink = taint.NUMPY
    summary = "NumPy functions or `torch.from_numpy` applied to a Proxy"
    message = "NumPy on a Proxy"


class IsinstanceOfProxy(_SinkRule):
    code = "FX220"
    name = "isinstance-of-proxy"
    severity = "warning"
    sink = taint.ISINSTANCE
    summary = "`isinstance(p, ...)` of a Proxy: fixed at trace time (a Proxy is not a Tensor), the branch is dropped"
    message = "`isinstance` of a Proxy is fixed at trace time"


class ParameterNoneCheck(_SinkRule):
    code = "FX221"
    name = "parameter-none-check"
    severity = "warning"
    sink = taint.NONE_CHECK
    summary = "`if param is not None` on a traced forward's parameter: always true while tracing"
    message = "a forward parameter is never None while tracing"


class TraceError(FxTraceRule):
    code = "FX000"
    name = "trace-error"
    severity = "error"
    summary = "with `--dynamic --target fx`: what symbolic_trace rejects that no static rule explains"
    message = "torch.fx.symbolic_trace rejects this, and no static rule explains it"
    engine_reported = True  # the fx dynamic checker reports it

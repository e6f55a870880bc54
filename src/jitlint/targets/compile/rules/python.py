"""DYN104-DYN109: Python that TorchDynamo does not put in a graph: printing, logging, calls into parts of the
standard library it cannot trace (a table verified on torch 2.13: `calls.toml`), `copy.deepcopy` of a
module or tensor, parameters created while tracing, and tensors made into text."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from pathlib import Path

import libcst as cst

from jitlint.facts.datadep import PARAMETER_CLASSES, DataDependence
from jitlint.rules.base import RuleContext
from jitlint.targets.compile.flags import OffByDefault
from jitlint.targets.compile.rules import CompileRule, break_cost, eager_cost, enclosing_function

_CALLS = Path(__file__).resolve().parents[1] / "calls.toml"
_LOGGING_FUNCTIONS = frozenset(f"logging.{name}" for name in (
    "debug", "info", "warning", "warn", "error", "exception", "critical", "fatal", "log", "getLogger",
))


@lru_cache(maxsize=1)
def breaking_calls() -> dict[str, dict]:
    """The standard-library calls Dynamo breaks on (`calls.toml`), by qualified name."""
    with _CALLS.open("rb") as handle:
        table = tomllib.load(handle)
    return {row["name"]: row for row in table["breaks"]}


def _logger(node: cst.BaseExpression, ctx: RuleContext) -> bool:
    """`logger` in `logger.info(...)`: a module-level name assigned `logging.getLogger(...)` (or a library's
    `get_logger`, which returns a `logging.Logger`)."""
    if not isinstance(node, cst.Name):
        return False
    value = ctx.module.globals.get(node.value)
    if not isinstance(value, cst.Call):
        return False
    qualified = ctx.qualify(value.func) or ""
    return qualified.rpartition(".")[2] in ("getLogger", "get_logger")


def off_by_default(node: cst.Call, ctx: RuleContext) -> bool:
    """The call runs only under a configuration flag of the module that is False as built with its defaults:
    Dynamo decides the flag while tracing and does not trace the call (`jitlint.targets.compile.flags`)."""
    function = enclosing_function(ctx)
    return function is not None and id(node) in ctx.fact(OffByDefault, function)


class PythonCallRule(CompileRule):
    facts = (OffByDefault,)


class PrintCall(PythonCallRule):
    code = "DYN104"
    name = "print-call"
    severity = "warning"
    summary = "`print(...)` in traced code (forward, what it calls, hooks, `@torch.jit.ignore` bodies)"
    message = "`print` in compiled code: torch.compile breaks the graph here"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if ctx.qualify(node.func) != "builtins.print" or off_by_default(node, ctx):
            return
        ctx.report(node, (
            f"`print(...)`: Dynamo cannot trace it (\"Failed to trace builtin operator\"); {break_cost(ctx, node)}; "
            "print outside the compiled model (return what you want to see), or move it into a "
            "`@torch.compiler.disable` function, which makes the break deliberate"))


class LoggingCall(PythonCallRule):
    code = "DYN105"
    name = "logging-call"
    severity = "warning"
    summary = "`logging` calls, methods of a module-level logger, `warnings.warn` in traced code"
    message = "logging in compiled code: torch.compile breaks the graph here"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        qualified = ctx.qualify(node.func) or ""
        func = node.func
        if qualified in _LOGGING_FUNCTIONS or (isinstance(func, cst.Attribute) and _logger(func.value, ctx)):
            reason, hint = ("\"logging.Logger method not supported for non-export cases\"",
                            "or add the method to `torch._dynamo.config.ignore_logging_functions` to drop it while "
                            "compiling")
        elif breaking_calls().get(qualified, {}).get("rule") == self.code:
            reason, hint = ("\"Attempted to call function marked as skipped\"", "")
        else:
            return
        if off_by_default(node, ctx):
            return
        ctx.report(node, (
            f"this logging call: Dynamo does not trace it ({reason}); {break_cost(ctx, node)}; log outside the "
            "compiled model, or in a `@torch.compiler.disable` function (a deliberate break)"
            + (f", {hint}" if hint else "")))


class UntraceableCall(PythonCallRule):
    code = "DYN106"
    name = "untraceable-call"
    severity = "warning"
    summary = ("a standard-library call Dynamo cannot trace: `time.*`, most of `random`, `inspect.stack`, "
               "`sys._getframe`, `copy.copy`, C extensions (`zlib`, `hashlib`), `numpy.random.SeedSequence`, ...; "
               "the torch functions it skips (`pack_padded_sequence`, RNG state) and `torch.Generator`")
    message = "a call Dynamo cannot trace: torch.compile breaks the graph here"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        qualified = ctx.qualify(node.func) or ""
        row = breaking_calls().get(qualified)
        if row is None or row["rule"] != self.code or off_by_default(node, ctx):
            return
        skipped = row["gb"] in ("GB0007", "GB0008")
        reason = ("it is marked as skipped (a C function, or a module Dynamo does not trace)" if skipped
                  else "it does what Dynamo cannot trace")
        fix = "call it outside the compiled model and pass the result in (a tensor), or use the torch equivalent " \
              "(`torch.rand`, ...)"
        if qualified == "torch.Generator":
            reason = ("a generator is an opaque object Dynamo cannot make in the middle of the graph (\"An opaque "
                      "object was created in the middle of the program\"), and an op given one breaks again")
            fix = ("draw with the global generator (seed it with `torch.manual_seed` outside the model), or draw the "
                   "noise outside the compiled model and pass it in")
        elif qualified.startswith("torch."):
            reason = "Dynamo's trace rules mark this torch function as skipped"
            fix = ("call it outside the compiled model, or do without it in forward (a padding mask instead of a "
                   "packed sequence)")
        result = (" the value it returns is a constant of the resumed code: one recompile when it changes"
                  if qualified.startswith(("time.", "random.")) else "")
        ctx.report(node, (f"`{qualified}(...)`: {reason} ({row['gb'].lower()}); {break_cost(ctx, node)};{result} "
                          f"{fix}").replace(";;", ";"))


class DeepcopyInForward(PythonCallRule):
    code = "DYN107"
    name = "deepcopy-of-module"
    severity = "warning"
    summary = "`copy.deepcopy` of a module, parameter, buffer or tensor in traced code"
    message = "`copy.deepcopy` of a module or tensor: torch.compile breaks the graph here"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if ctx.qualify(node.func) != "copy.deepcopy" or not node.args:
            return
        what = _module_or_tensor(node.args[0].value, ctx)
        if what is None or off_by_default(node, ctx):
            return
        ctx.report(node, (
            f"`copy.deepcopy` of {what}: Dynamo cannot copy tensors (\"Attempted to copy.deepcopy a tensor\"); "
            f"{break_cost(ctx, node)}; make the copy once, in `__init__`, or use tensor ops (`t.clone()`)"))


def _module_or_tensor(value: cst.BaseExpression, ctx: RuleContext) -> str | None:
    function = ctx.function
    if function is None or function.info.bound_first_param != "instance":
        return None
    self_name = function.info.node.params.params[0].name.value if function.info.node.params.params else None
    if isinstance(value, cst.Name) and value.value == self_name:
        return "the module itself"
    found = ctx.self_attribute(value)
    if found is None:
        return None
    name, info = found
    if info.registered or info.constructors & PARAMETER_CLASSES:
        return f"the tensor `self.{name}`"
    project = ctx.project
    for constructor in info.constructors:
        cls = project.resolve_class(constructor)
        if (cls is not None and project.is_module_class(cls)) or constructor.startswith("torch.nn."):
            return f"the module `self.{name}`"
    return None


class ParameterInForward(PythonCallRule):
    code = "DYN108"
    name = "parameter-created-in-forward"
    severity = "warning"
    summary = "`nn.Parameter(...)`, or a `torch.nn` layer with parameters (`nn.Linear(...)`), built in traced code"
    message = "a parameter created while Dynamo traces: torch.compile breaks the graph here"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        qualified = ctx.qualify(node.func) or ""
        if qualified in PARAMETER_CLASSES - {"torch.nn.Buffer"}:
            what = "`nn.Parameter(...)`"
        elif qualified in parameter_layers():
            what = f"`{qualified}(...)`, whose constructor creates parameters,"
        else:
            return
        if off_by_default(node, ctx):
            return
        ctx.report(node, (
            f"{what} in compiled code: Dynamo does not trace parameter creation (\"Attempted to use "
            f"`torch.nn.Parameter()` constructor with Dynamo\"); {break_cost(ctx, node)}; create it in `__init__` "
            "and reuse it (or use the functional form, `torch.nn.functional.linear(x, w)`)"))


@lru_cache(maxsize=1)
def parameter_layers() -> frozenset[str]:
    """The `torch.nn` layers whose constructor creates an `nn.Parameter` (torch 2.13), from the table in
    `calls.toml`."""
    with _CALLS.open("rb") as handle:
        table = tomllib.load(handle)
    return frozenset(f"torch.nn.{name}" for name in table["layers"]["breaks"])


class TensorAsText(CompileRule):
    code = "DYN109"
    name = "tensor-as-text"
    severity = "warning"
    summary = ("`str(t)`, `repr(t)`, `\"%s\" % t`, and an f-string or `.format` of a tensor that Python then needs as "
               "text (`len`, `+`, `==`, `in`, string methods)")
    message = "a tensor's value made into text: torch.compile breaks the graph here"
    facts = (DataDependence,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        if enclosing_function(ctx) is not node:
            return
        for event in ctx.fact(DataDependence, node).events:
            if event.kind != "text":
                continue
            cost = eager_cost(ctx) if event.eager else break_cost(ctx, event.node, node)
            ctx.report(event.node, (
                f"{event.what}: the text of a tensor is its data, which Dynamo does not have while tracing; {cost}; "
                "format shapes and dtypes only (`x.shape`), or return the tensor and format it outside the compiled "
                "model"))

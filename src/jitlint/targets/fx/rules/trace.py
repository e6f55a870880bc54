"""FX2xx: what `torch.fx.symbolic_trace` rejects or silently mis-traces, in the code it runs.

The tracing model (`jitlint.targets.fx.tracing`) runs each traced function as the tracer would and records typed
results; each rule below reports the results of its type, with its own message. The hazards that need no model
(try/except, Python state, random draws, hooks) are plain visitors in `trace_hazards`.
"""

from __future__ import annotations

from typing import ClassVar

import libcst as cst

from jitlint.rules.base import RuleContext
from jitlint.targets.fx import tracing
from jitlint.targets.fx.rules import FxTraceRule

_WRAP = "or wrap the function with `torch.fx.wrap`"


class _ModelRule(FxTraceRule):
    result: ClassVar[type[tracing.TraceResult] | tuple[type[tracing.TraceResult], ...]]
    facts = (tracing.TraceResults,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        for result in ctx.fact(tracing.TraceResults, node):
            if isinstance(result, self.result):
                message = self.describe(result)
                if result.alone is not None:
                    message += (f" (when `{result.alone}` is traced on its own: symbolic_trace makes every parameter "
                                "of its forward a placeholder Proxy, those with defaults too, while the modules that "
                                "hold it pass other values; trace those, or give the defaults as `concrete_args`)")
                ctx.report(result.node, message)

    def describe(self, result) -> str:
        return self.message


_BOOL_CONSTRUCTS = {
    "if": "a condition",
    "while": "a `while` condition",
    "assert": "an `assert`",
    "ternary": "a conditional expression",
    "and/or": "an `and`/`or` operand",
    "not": "a `not`",
    "bool()": "`bool()`",
    "comprehension": "a comprehension's `if`",
    "filter": "`filter`, which makes each result of its function (each item, given None) a bool",
    "chained comparison": "a chained comparison (`a < b < c` makes `a < b` a bool)",
    "in": "an `in` test on a sequence (each item is compared with `==` and the result made a bool)",
    "validation": "torch's own validation of the arguments of the call here (a `torch.distributions` constructor "
                  "checks its parameters' constraints with `if`)",
    "torch-forward": "the forward this module inherits from torch.nn (a subclass defined outside torch.nn is not a "
                     "leaf, so torch's forward runs as traced code, and it tests the input's `dim()`/`size()` with "
                     "`if`)",
    "module-method": "the arguments of an `nn.Module` method (`module.to(x.device)`: `Module.to` parses them into a "
                     "device and a dtype it tests with `if`)",
}


class ProxyAsBool(_ModelRule):
    code = "FX201"
    name = "proxy-as-bool"
    severity = "error"
    result = tracing.ProxyAsBool
    summary = "a traced value (Proxy) used as a Python bool: `if`, `while`, `and`/`or`/`not`, ternary, `assert`"
    message = "a Proxy used as a Python bool: symbolic_trace cannot follow control flow on traced values"

    def describe(self, result: tracing.ProxyAsBool) -> str:
        where = _BOOL_CONSTRUCTS.get(result.construct, "a condition")
        hint = ("use `torch._assert`" if result.construct == "assert" else
                "build it outside the traced code (in a leaf module)" if result.construct == "validation" else
                "make the class a leaf (a `Tracer` whose `is_leaf_module` returns True for it, or "
                "`[tool.jitlint.fx] leaf-modules`)" if result.construct == "torch-forward" else
                "move or convert the model before tracing it (`model.to(device)`), with concrete values" if
                result.construct == "module-method" else
                "use `torch.where`, make the decision from Python attributes")
        return (f"a Proxy used as a Python bool in {where}: symbolic_trace cannot follow control flow on traced "
                f"values (TraceError); {hint}, {_WRAP}")


_BUILTIN_MESSAGES = {
    "len": "`len()` of a Proxy: symbolic_trace raises \"'len' is not supported in symbolic tracing by default\"; use "
           "`x.size(0)` / `x.shape[0]`, or `torch.fx.wrap('len')` at module level",
    "int": "`int()` of a Proxy: a traced value has no Python int while tracing (TypeError); keep it a tensor "
           f"expression, {_WRAP}",
    "float": "`float()` of a Proxy: a traced value has no Python float while tracing (TypeError); keep it a tensor "
             f"expression, {_WRAP}",
    "complex": f"`complex()` of a Proxy: a traced value has no Python number while tracing (TypeError); {_WRAP}",
    "range": "`range()` of a Proxy: a traced value is not an integer while tracing (\"'Proxy' object cannot be "
             f"interpreted as an integer\"); loop over a concrete count, {_WRAP}",
    "index": "a Proxy where Python needs an integer (`hex`/`oct`/`bin`/`chr`: \"'Proxy' object cannot be interpreted "
             f"as an integer\"); {_WRAP}",
    "round": "`round()` of a Proxy: Proxy defines no `__round__` (TypeError); use `torch.round`",
    "divmod": "`divmod()` of a Proxy is not supported (TypeError); use `//` and `%`",
    "format": "a Proxy formatted as a number (`f\"{p:d}\"`, `\"%d\" % p`): a traced value has no number while "
              "tracing (TypeError); format it outside traced code, or without a spec",
    "math": "a `math` function imported by name (`from math import ceil`) into a module the tracer does not patch, "
            "given a Proxy (TypeError: must be real number, not Proxy); call it as `math.ceil(...)`, which "
            "symbolic_trace records",
    "max": "builtin `max()` compares a Proxy as a Python bool (symbolic_trace raises on control flow); use "
           f"`torch.maximum`/`torch.clamp`, {_WRAP}",
    "min": "builtin `min()` compares a Proxy as a Python bool (symbolic_trace raises on control flow); use "
           f"`torch.minimum`/`torch.clamp`, {_WRAP}",
    "sorted": f"`sorted()` compares Proxies as Python bools (symbolic_trace raises on control flow); {_WRAP}",
    "any": f"`any()` makes a Proxy a Python bool (symbolic_trace raises on control flow); use `torch.any`, {_WRAP}",
    "all": f"`all()` makes a Proxy a Python bool (symbolic_trace raises on control flow); use `torch.all`, {_WRAP}",
    "torch.tensor": "`torch.tensor`/`torch.as_tensor` of a Proxy fails while tracing (TypeError: "
                    "`__cuda_array_interface__` must be a dict); the value already is a tensor: use it, or `.to(...)`",
    "torch.tensor-list": "`torch.tensor` of a list holding a Proxy calls `len()` on it (\"'len' is not supported in "
                         "symbolic tracing by default\"); build it with `torch.stack` or `torch.cat` of tensors",
    "torch.Size": "`torch.Size` of a Proxy (TypeError: it takes an iterable of 'int'); pass the shape as a tuple",
}


class BuiltinOnProxy(_ModelRule):
    code = "FX202"
    name = "builtin-on-proxy"
    severity = "error"
    result = tracing.BuiltinOnProxy
    summary = "builtin `len`/`int`/`float`/`range`/`max`/`min`/`round` (and `torch.tensor([p])`) applied to a Proxy"
    message = "a builtin that needs a concrete value applied to a Proxy"

    def describe(self, result: tracing.BuiltinOnProxy) -> str:
        return _BUILTIN_MESSAGES.get(result.builtin, self.message)


_ITERATIONS = {
    "for": ("a `for` loop over a Proxy", "loop over a concrete count and index the tensor"),
    "comprehension": ("a comprehension over a Proxy", "use tensor operations, or index a concrete range"),
    "star": ("star-unpacking a Proxy (`*x.shape`, `f(*x)`)",
             "index it, or concatenate shapes as tuples (`x.shape[:1] + (-1,)`)"),
    "double-star": ("`**` of a Proxy (the `**kwargs` of a traced forward is one Proxy)",
                    "pass keyword arguments explicitly"),
    "star-target": ("`a, *rest = p` of a Proxy", "`a, b = x.shape` (no star) works, or index it"),
    "in": ("`in` on a Proxy", "compare with tensor operations"),
}


class ProxyIteration(_ModelRule):
    code = "FX203"
    name = "proxy-iteration"
    severity = "error"
    result = tracing.ProxyIterated
    summary = "a Proxy iterated: `for`, comprehension, `*p`, `**p`, `a, *rest = p`, `list(p)`, `zip(p, ...)`"
    message = "a Proxy iterated: symbolic_trace cannot iterate a traced value"

    def describe(self, result: tracing.ProxyIterated) -> str:
        what, hint = _ITERATIONS.get(result.construct, (f"`{result.construct}()` of a Proxy", "use tensor operations"))
        return f"{what} iterates it (\"Proxy object cannot be iterated\", TraceError); {hint}"


_CONTAINERS = {
    "list": ("a Python list", "\"list indices must be integers or slices, not Proxy\""),
    "tuple": ("a Python tuple", "\"tuple indices must be integers or slices, not Proxy\""),
    "str": ("a string", "\"string indices must be integers, not 'Proxy'\""),
    "dict": ("a dict", "KeyError: a Proxy is never one of its keys"),
    "module-list": ("a ModuleList/Sequential", "\"'Proxy' object cannot be interpreted as an integer\""),
    "module-dict": ("a ModuleDict", "KeyError: a Proxy is never one of its keys"),
    "tensor-slice": ("a buffer (a concrete tensor while tracing) sliced",
                     "\"slice indices must be integers or None or have an __index__ method\""),
    "sequence-slice": ("a Python list or tuple sliced",
                       "\"slice indices must be integers or None or have an __index__ method\""),
}


class ConcreteIndexedByProxy(_ModelRule):
    code = "FX204"
    name = "concrete-indexed-by-proxy"
    severity = "error"
    result = tracing.IndexedByProxy
    summary = "a Python list/tuple/dict, ModuleList or buffer indexed or sliced by a Proxy"
    message = "a concrete container indexed or sliced by a Proxy"

    def describe(self, result: tracing.IndexedByProxy) -> str:
        what, error = _CONTAINERS.get(result.container, ("a concrete container", "TypeError"))
        return (f"{what} indexed by a Proxy: a traced value is not an integer while tracing ({error}); index a "
                f"tensor with tensor ops, {_WRAP}")


class ProxyItemAssignment(_ModelRule):
    code = "FX205"
    name = "proxy-item-assignment"
    severity = "error"
    result = tracing.ProxyItemAssigned
    summary = "item assignment on a Proxy (`x[:, 0] = v`)"
    message = ("item assignment on a Proxy: \"'Proxy' object does not support item assignment\"; build the tensor "
               "with `torch.where`, `torch.cat` or an out-of-place op")

    def describe(self, result: tracing.ProxyItemAssigned) -> str:
        if result.deleted:
            return ("item deletion on a Proxy: \"'Proxy' object doesn't support item deletion\"; select the items "
                    "to keep (indexing, `torch.cat` of slices)")
        return self.message


class VarargsFactoryProxySize(_ModelRule):
    code = "FX206"
    name = "varargs-factory-proxy-size"
    severity = "error"
    result = tracing.VarargsFactory
    summary = "`torch.zeros/ones/empty/rand/randn(p, ...)` with separate size arguments, a Proxy first"
    message = "a tensor factory given separate size arguments with a Proxy first"

    def describe(self, result: tracing.VarargsFactory) -> str:
        return (f"`{result.factory}` with sizes as separate arguments and a Proxy first fails to parse while tracing; "
                "pass the sizes as one tuple (`torch.zeros((n, 3))`), or use `x.new_zeros(n, 3)`")


class FinfoOfProxy(_ModelRule):
    code = "FX207"
    name = "finfo-of-proxy"
    severity = "error"
    result = tracing.FinfoOfProxy
    summary = "`torch.finfo(x.dtype)` of a traced value's dtype"
    message = ("`torch.finfo` of a Proxy dtype (TypeError while tracing): pass a concrete dtype "
               f"(`torch.finfo(torch.float32)`), {_WRAP}")


class ModuleBuiltInForward(_ModelRule):
    code = "FX208"
    name = "module-built-in-forward"
    severity = "error"
    result = tracing.ModuleBuiltInTrace
    summary = "a module constructed inside traced code and called there (`nn.ReLU()(x)`)"
    message = ("calls a module built inside the traced function: symbolic_trace needs every module it calls to be a "
               "submodule (\"module is not installed as a submodule\"); build it in `__init__`")


class StaticForward(_ModelRule):
    code = "FX213"
    name = "static-forward"
    severity = "error"
    result = tracing.StaticForwardModule
    summary = "a module whose `forward` is a staticmethod, traced: the module itself is its first parameter"
    message = ("`forward` is a staticmethod: symbolic_trace passes the module itself as its first argument (where "
               "`self` would be), so that parameter is the module, not a tensor, and using it as one raises "
               "TypeError; make `forward` an ordinary method (`def forward(self, x)`)")

    def describe(self, result: tracing.StaticForwardModule) -> str:
        if not result.name:
            return self.message
        return (f"`forward` is a staticmethod: symbolic_trace passes the module itself as its first argument (where "
                f"`self` would be), so `{result.name}` is the module, not a tensor, and using it as one raises "
                "TypeError; make `forward` an ordinary method (`def forward(self, x)`)")


class AbsentAttribute(_ModelRule):
    code = "FX214"
    name = "attribute-absent-with-defaults"
    severity = "error"
    result = tracing.AbsentAttribute
    summary = ("reads an attribute `__init__` sets only for non-default arguments, on a path tracing runs (a "
               "parameter tested `is not None` is a placeholder Proxy)")
    message = ("reads an attribute the module built with its defaults does not have: `__init__` sets it only for "
               "other arguments, and symbolic_trace runs this line (AttributeError)")

    def describe(self, result: tracing.AbsentAttribute) -> str:
        return (f"`__init__` sets `self.{result.name}` only where `{result.skipped_by}` is {result.when}, which the "
                f"constructor's defaults make {not result.when}: the module built with its defaults has no such "
                "attribute, and symbolic_trace runs this line (AttributeError; a forward parameter tested `is not "
                "None` is a placeholder Proxy, never None, while tracing); give that parameter in `concrete_args`, "
                "or build the module with the argument")


class ScriptFunctionOnProxy(_ModelRule):
    code = "FX209"
    name = "script-function-on-proxy"
    severity = "error"
    result = tracing.ScriptFunctionCalled
    summary = "a `@torch.jit.script` function called with a Proxy"
    message = ("a `torch.jit.script` function called with a Proxy: a ScriptFunction checks its argument types and "
               "rejects a Proxy; call a plain Python function while tracing")


class NumpyOnProxy(_ModelRule):
    code = "FX210"
    name = "numpy-on-proxy"
    severity = "error"
    result = tracing.NumpyOnProxy
    summary = "NumPy functions or `torch.from_numpy` applied to a Proxy"
    message = "NumPy on a Proxy"

    def describe(self, result: tracing.NumpyOnProxy) -> str:
        return (f"`{result.function}` of a Proxy: a traced value has no data while tracing; use torch operations, "
                f"{_WRAP}")


class TypeCheckFailsOnProxy(_ModelRule):
    code = "FX211"
    name = "type-check-fails-on-proxy"
    severity = "error"
    result = (tracing.TypeCheckRaises, tracing.ExternalRejects)
    summary = "a `raise` or failing `assert` reached because a Proxy fails a type check (`isinstance(x, torch.Tensor)`)"
    message = "a type check fails on a Proxy, and the code raises"

    def describe(self, result: tracing.TypeCheckRaises | tracing.ExternalRejects) -> str:
        if isinstance(result, tracing.ExternalRejects) and result.callable.startswith("torch."):
            return (f"symbolic_trace fails in `{result.callable}`: torch's own code checks this argument in Python "
                    f"before any dispatch, and a traced value (a `torch.fx.Proxy`) fails the check: "
                    f"`{result.raised}` (\"{result.says}\"); compute it from concrete values, or call it in a "
                    "function registered with `torch.fx.wrap`")
        if isinstance(result, tracing.ExternalRejects):
            says = f" (\"{result.says}...\")" if " " in result.says else ""
            return (f"symbolic_trace fails in `{result.callable}`, an installed library's code: given a traced value "
                    f"(a `torch.fx.Proxy`, not a tensor) it raises `{result.raised}`{says}; call it in a function "
                    "registered with `torch.fx.wrap` (or make the module a leaf), or use torch operations")
        what = {"raise": f"raises {('`' + result.raised.rpartition('.')[2] + '`') if result.raised else 'here'}",
                "assert": "fails this `assert`", "torch._assert": "fails this `torch._assert`"}[result.statement]
        return (f"symbolic_trace {what}: a traced value is a `torch.fx.Proxy`, so a type check on it "
                "(`isinstance(x, torch.Tensor)`, `type(x)`, `torch.is_tensor`) decides the way that leads here; "
                "check types outside traced code, or wrap the checking function with `torch.fx.wrap`")


class ProxyDictKey(_ModelRule):
    code = "FX212"
    name = "proxy-dict-key"
    severity = "error"
    result = tracing.ProxyDictKey
    summary = "a dict whose key is a Proxy passed to a traced operation"
    message = ("a dict with a Proxy key given to a traced operation: \"Keys for dictionaries used as an argument "
               "cannot contain a Node\"; key it by a Python value")


class IsinstanceOfProxy(_ModelRule):
    code = "FX220"
    name = "isinstance-of-proxy"
    severity = "warning"
    result = tracing.IsinstanceOfProxy
    summary = "`isinstance(p, ...)` of a Proxy: fixed at trace time (a Proxy is not a Tensor), the branch is dropped"
    message = ("`isinstance` of a Proxy: while tracing the value is a `torch.fx.Proxy`, not a Tensor (or list), so "
               "this test is fixed at trace time")


class ParameterNoneCheck(_ModelRule):
    code = "FX221"
    name = "parameter-none-check"
    severity = "warning"
    result = tracing.ParameterNoneCheck
    summary = "`if param is not None` on a traced forward's parameter: always true while tracing"
    message = "a forward parameter is never None while tracing"

    def describe(self, result: tracing.ParameterNoneCheck) -> str:
        return (f"`{result.name}` is a forward parameter: while tracing it is always a Proxy, never None, so this test "
                f"is fixed at trace time; trace with `concrete_args={{'{result.name}': None}}` or split the forward")


class TraceError(FxTraceRule):
    code = "FX000"
    name = "trace-error"
    severity = "error"
    summary = "with `--dynamic --target fx`: what symbolic_trace rejects that no static rule explains"
    message = "torch.fx.symbolic_trace rejects this, and no static rule explains it"
    engine_reported = True  # the fx dynamic checker reports it

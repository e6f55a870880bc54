"""Tracing as `torch.fx.symbolic_trace` does it: an abstract interpretation of traced code over the shared flow
walker (`jitlint.facts.flow`), and the failures it reaches, as typed results the FX2xx rules report.

The specification is torch's own code (torch 2.13: `torch/fx/proxy.py`, `torch/fx/_symbolic_trace.py`,
`torch/fx/graph.py`; `error_sites.toml` lists each way tracing fails there, with the result that models it):

- every value is a Proxy, a concrete value, a module, a class, a container of values, or unknown
  (`jitlint.targets.fx.values`);
- a root's parameters are Proxies, all of them, flags with defaults and `*args`/`**kwargs` too (each one Proxy);
  `self.<nn.Parameter>` is a Proxy (a `get_attr` node); buffers, plain attributes and literals stay concrete;
- attribute access, indexing, arithmetic, comparisons and method calls on a Proxy give Proxies, so do `torch`
  functions and leaf modules given one (`__torch_function__`, `call_module`), `math.*` (autowrapped) and
  functions registered with `torch.fx.wrap` (when an argument holds a Proxy; otherwise they run);
- `isinstance(proxy, torch.Tensor)` is False, `type(proxy)` is `Proxy`, `proxy is None` is False: a test
  decided that way has only its taken branch followed, and a `raise` or failing `assert` that a Proxy's type
  check leads to is where the library stops the trace;
- what a Proxy cannot do fails there, with torch's message: `bool` (every test, `and`/`or`/`not`, chained
  comparisons, `in` on a sequence), `len`, `int`/`float`/`complex`, `range`/`hex`/indexing of Python containers
  (`__index__`), `round`, `divmod`, iteration (`for`, comprehensions, `*p`, `**p`, `a, *b = p`, `in p`,
  `list(p)`...; `a, b = p` is special-cased and works), item assignment, NumPy, `torch.finfo`, varargs
  factories, `torch.tensor(p)`, modules built in traced code, ScriptFunctions, Proxy keys of a dict given to an op;
- calls are followed into the project's functions and submodules (leaves, wrapped functions and the configured
  `library-leaves` stop it, as `TracePolicy` says) with the values of their arguments: each function is analysed
  once per distinct set of argument values (bounded), and what it returns flows back to the caller;
- a `try` body is followed; a failure inside it that one of its handlers catches is not one.

The model is computed once per run, from the roots the capture map has (module classes users trace themselves);
captured functions no root reaches with known arguments (a submodule in a `ModuleList` loop) are analysed with
parameters guessed from their annotations, and in those no type-check outcome is trusted.
"""

from __future__ import annotations

import math
import re
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Callable

import libcst as cst

from jitlint.facts import Fact
from jitlint.facts.config_flags import class_flag
from jitlint.facts.flow import FlowDomain, FlowWalker, Frame, Reads
from jitlint.facts.syntax import assigned_names
from jitlint.facts.torch_api import CONTAINER_KINDS, is_torch_module_base
from jitlint.names import first_param_name
from jitlint.project import (
    CallResult,
    ClassInfo,
    FunctionInfo,
    ModuleInfo,
)
from jitlint.targets.fx.absent import absent_with_defaults
from jitlint.targets.fx.appends import appended
from jitlint.targets.fx.external import ExternalCallable, built_to_trace, external_callable, outside_name
from jitlint.targets.fx.containers import element_class
from jitlint.targets.fx.literals import NOT_CONSTANT, compare_constants, fold_constants, literal_value, never_equal
from jitlint.targets.fx.literals import unless_none
from jitlint.targets.fx.results import (  # noqa: F401  (the rules read them as `tracing.<Result>`)
    AbsentAttribute,
    BuiltinOnProxy,
    ExternalRejects,
    FinfoOfProxy,
    IndexedByProxy,
    IsinstanceOfProxy,
    ModuleBuiltInTrace,
    NumpyOnProxy,
    ParameterNoneCheck,
    ProxyAsBool,
    ProxyDictKey,
    ProxyItemAssigned,
    ProxyIterated,
    ScriptFunctionCalled,
    StaticForwardModule,
    TraceResult,
    TypeCheckRaises,
    VarargsFactory,
)
from jitlint.targets.fx.scan import (
    Registrations,
    free_names,
    is_generator,
    nested_definitions,
    try_bodies,
)
from jitlint.targets.fx.trace import (
    TRACE_TIME_VALUES,
    applied_function,
    alone_roots,
    attribute_only_classes,
    autograd_forward,
    is_root_forward,
    torch_forward,
    torch_forward_override,
)
from jitlint.targets.fx.values import (
    CONCRETE,
    EMPTY,
    NONE,
    OPAQUE,
    PROXY,
    PROXY_TYPE,
    UNKNOWN,
    Closure,
    Concrete,
    Const,
    Mapping,
    Module,
    Proxy,
    Seq,
    TypeValue,
    Unknown,
    Value,
    annotated_value,
    holds_proxy,
    join,
    join_all,
    kind_of,
    may_hold_proxy,
    non_empty,
    sequence,
    widen,
)
from jitlint.walk import walk

if TYPE_CHECKING:
    from jitlint.capture import CapturedFunction
    from jitlint.targets.fx.trace import TracePolicy


# Exceptions and what catches them (`except X:`), for the failures above.
_CAUGHT_BY = {
    "TraceError": {"TraceError", "ValueError"},
    "TypeError": {"TypeError"},
    "RuntimeError": {"RuntimeError"},
    "KeyError": {"KeyError", "LookupError"},
    "NameError": {"NameError"},
    "AssertionError": {"AssertionError"},
    "ValueError": {"ValueError"},
}

# -- torch facts ----------------------------------------------------------------------------------------------
PARAMETER_CLASSES = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})
# Factories whose sizes, given as separate arguments with a Proxy first, fail to parse (torch 2.13).
VARARGS_FACTORIES = frozenset({"torch.zeros", "torch.ones", "torch.empty", "torch.rand", "torch.randn"})
# What a Proxy is an instance of, besides Proxy and object: the ABCs its methods satisfy.
_PROXY_ABCS = frozenset({"Iterable", "Sized", "Callable", "Hashable"})
_PROXY_CLASSES = frozenset({PROXY_TYPE, "torch.fx.Proxy", "builtins.object"})
# Builtin types by name, for isinstance/type tests of concrete values.
_BUILTIN_TYPES = {"int": int, "float": float, "str": str, "bool": bool, "list": list, "tuple": tuple,
                  "dict": dict, "set": set, "frozenset": frozenset, "complex": complex, "bytes": bytes,
                  "type": type, "object": object, "slice": slice}
# Builtins that iterate their (first) argument.
_ITERATING = frozenset({"list", "tuple", "set", "frozenset", "sorted", "enumerate", "sum", "any", "all", "dict",
                        "reversed", "iter", "map", "filter", "bytes", "bytearray"})
# Builtins that call `__index__` of their argument.
_INDEXING = frozenset({"hex", "oct", "bin", "chr", "range"})
# Methods of lists, tuples, dicts and strings: called on a value that may be a Proxy or a container of them, they
# say nothing of which it is.
_CONTAINER_METHODS = frozenset({"keys", "values", "items", "get", "append", "extend", "insert", "pop", "index",
                                "count", "copy", "update", "setdefault", "popitem", "clear", "remove", "reverse",
                                "sort", "format", "join", "split", "startswith", "endswith", "strip", "replace",
                                "lower", "upper"})
_TENSOR_ATTRIBUTES = {"shape": "size", "dtype": "dtype", "device": "device"}
_MAX_CONTEXTS = 8  # per function, before argument constants are forgotten
_MAX_DEPTH = 40
_MAX_ANALYSES = 40000


@dataclass(frozen=True)
class Context:
    """How a function is called: its parameters' values, whether the call is on the path every run of the root
    takes (`definite`), whether a Proxy's type check was decided on the way (`type_checked`), whether it is a
    root forward (its parameters are placeholders) or analysed with guessed parameters."""

    params: tuple
    owner: ClassInfo | None
    definite: bool = True
    type_checked: bool = False
    root: bool = False
    guessed: bool = False

    def values(self) -> dict[str, Value]:
        return dict(self.params)


@dataclass
class _Analysis:
    returned: Value | None = None
    halts: bool = False  # every run of it in this context raises while tracing
    type_checked: bool = False  # a Proxy's type decided something before a `return` of it


class TracingModel:
    """The tracing model of one run: every traced function's failures, over the contexts it is called in."""

    def __init__(self, policy: "TracePolicy") -> None:
        self.policy = policy
        self.project = policy.project
        self.leaves = policy.leaves
        self.results: dict[int, dict[tuple[str, int], TraceResult]] = {}
        self._summaries: dict[tuple, _Analysis] = {}
        self._contexts: dict[int, set[tuple]] = {}
        self._reached: set[int] = set()
        self._depth = 0
        self._analyses = 0
        self._computed = False
        self._static_cache: dict[tuple[int, str], Value] = {}
        self._registrations: dict[int, dict[str, str]] = {}
        self._autowrapped: dict[int, bool] = {}
        self.closures: dict[int, tuple[cst.Lambda | cst.FunctionDef, FunctionInfo]] = {}  # key -> (node, where)
        self._nested: dict[int, FunctionInfo] = {}
        self.halted = False  # whether the analysis `analyse` last returned from always raises
        self.returned_checked = False  # whether what it returned may have been decided by a Proxy's type
        # Code after a failure every run meets is never traced. It is still analysed (the values it computes, the
        # failures a user meets next), but what it finds in a function goes to `_after_failure` and is kept only
        # for a function no trace reaches otherwise: a failure claimed in shared code would be one no run meets.
        self.after_failure = 0
        self._after_failure: dict[int, dict[tuple[str, int], TraceResult]] = {}
        self._live: set[int] = set()
        # A part of a model (a submodule class) may also be traced on its own: every parameter of its forward is
        # then a placeholder, those its parents leave at their defaults too. While `alone` is set, what is found
        # goes to `_alone`, and is kept where the part's own analyses found nothing at that node.
        self.alone: ClassInfo | None = None
        self.guessing = False  # analysing a function no trace reaches, with guessed arguments (not a run)
        self._alone: dict[int, dict[tuple[str, int], TraceResult]] = {}

    # -- queries ----------------------------------------------------------------------------------------------
    def results_of(self, node: cst.FunctionDef) -> list[TraceResult]:
        self.compute()
        return list(self.results.get(id(node), {}).values())

    def compute(self) -> None:
        if self._computed:
            return
        self._computed = True
        entries = [entry for entry in self.policy.captured.functions.values() if entry.body_captured]
        for entry in entries:
            if is_root_forward(self.policy, entry):
                owners = entry.owners or [entry.info.cls]
                for owner in owners:
                    self.analyse(entry.info, self.root_context(entry.info, owner))
        attribute_only = attribute_only_classes(self.project)
        for entry in entries:
            if id(entry.info.node) not in self._reached:
                owner = entry.owners[0] if entry.owners else entry.info.cls
                if entry.info.name == "forward" and owner is not None and id(owner) in attribute_only:
                    continue  # its calls are all `self.<name>(...)`, resolved: none ran it
                # a forward's guessed context stands for a trace of a module built elsewhere; another function's
                # claims nothing about its arguments: what it reaches is not run (what a trace reaches only after
                # a failure is kept)
                self.guessing = entry.info.name != "forward"
                self.analyse(entry.info, self.guessed_context(entry.info, owner))
        self.guessing = False
        for node_id, found in self._after_failure.items():
            if node_id not in self._live:
                kept = self.results.setdefault(node_id, {})
                for key, result in found.items():
                    kept.setdefault(key, result)
        self._trace_parts_alone(entries)

    def _trace_parts_alone(self, entries: list["CapturedFunction"]) -> None:
        """Each module class analysed so far only as a part of another (`submodule_classes`), traced as a root:
        `symbolic_trace(Part(...))` makes every parameter of its forward a placeholder Proxy. A failure found only
        this way is kept, marked with the class (`TraceResult.alone`); one its parents' calls reach already is
        not repeated."""
        for entry in entries:
            for owner in alone_roots(self.policy, entry):
                self.alone = owner
                try:
                    self.analyse(entry.info, self.root_context(entry.info, owner))
                finally:
                    self.alone = None
        for node_id, found in self._alone.items():
            kept = self.results.setdefault(node_id, {})
            for key, result in found.items():
                kept.setdefault(key, result)

    def report(self, function: FunctionInfo, result: TraceResult) -> None:
        key = (type(result).__name__, id(result.node))
        if self.alone is not None:
            if self.after_failure or not result.raises:
                return  # what a lone trace never reaches, or a note that it traces differently: not a failure
            found = self._alone.setdefault(id(function.node), {})
            if key not in found:
                found[key] = replace(result, alone=self.alone.name)
            return
        found = (self._after_failure if self.after_failure else self.results).setdefault(id(function.node), {})
        found.setdefault(key, result)

    # -- contexts ---------------------------------------------------------------------------------------------
    def root_context(self, function: FunctionInfo, owner: ClassInfo | None) -> Context:
        params = {name: PROXY for name in _parameter_names(function)}
        if params and function.cls is not None and function.bound_first_param is None:
            # a static forward: the tracer passes the root module where `self` would be, the rest are placeholders
            first = next(iter(params))
            params[first] = Module(frozenset({owner}) if owner is not None else frozenset(), root_argument=True)
        return self._context(function, owner, params, root=True)

    def guessed_context(self, function: FunctionInfo, owner: ClassInfo | None) -> Context:
        """Parameters of a function no root reached with known arguments: for a forward, a Proxy for a tensor or
        unannotated parameter, a list of Proxies for `List[...]`/`Tuple[...]`, a concrete value for a scalar
        annotation, unknown for another annotation; a parameter with a default keeps it (as when a parent omits
        it). The parameters of another function are claimed to be nothing in particular (no Proxy)."""
        params: dict[str, Value] = {}
        forward = function.name == "forward" and function.cls is not None
        positional, keyword_only, star, star_kwarg = _parameters(function)
        for param in (*positional, *keyword_only):
            name = param.name.value
            if param.default is not None:
                params[name] = self.static_value(param.default, function.module)
            elif forward:
                params[name] = annotated_value(param, function.module)
            else:
                params[name] = OPAQUE  # a helper no root reaches with known arguments: nothing is claimed
        for param in (star, star_kwarg):
            if param is not None:
                params[param.name.value] = UNKNOWN if forward else OPAQUE
        return self._context(function, owner, params, guessed=True, definite=False)

    def _context(self, function: FunctionInfo, owner: ClassInfo | None, params: dict[str, Value], **flags) -> Context:
        if function.bound_first_param == "instance":
            self_name = first_param_name(function.node)
            if self_name is not None:
                params = {self_name: Module(frozenset([owner] if owner else ()), with_defaults=bool(flags.get("root"))),
                          **params}
        return Context(tuple(params.items()), owner, **flags)

    # -- calls ------------------------------------------------------------------------------------------------
    def call(self, function: FunctionInfo, owner: ClassInfo | None, args: "Arguments", bound: Value | None,
             definite: bool, type_checked: bool, free: dict[str, Value] | None = None,
             report_to: FunctionInfo | None = None) -> Value:
        """What calling a project function with these arguments returns (its body analysed in that context).
        `free`: the values of an inner function's free variables; `report_to`: the function its findings belong
        to (the captured function that defines an inner one)."""
        self.halted = False
        params = self.bind(function, args, bound)
        if params is None:
            return UNKNOWN
        if free:
            params = {**free, **params}
        context = Context(tuple(params.items()), owner, definite, type_checked)
        return self.analyse(function, context, report_to)

    def nested_function(self, node: cst.FunctionDef, where: FunctionInfo) -> FunctionInfo:
        info = self._nested.get(id(node))
        if info is None:
            info = self._nested[id(node)] = FunctionInfo(node.name.value, node, where.module, None, frozenset())
        return info

    def bind(self, function: FunctionInfo, args: "Arguments", bound: Value | None) -> dict[str, Value] | None:
        node = function.node
        params = node.params
        positional = [*params.posonly_params, *params.params]
        values: dict[str, Value] = {}
        offset = 0
        if function.bound_first_param is not None and bound is not None and positional:
            values[positional[0].name.value] = bound
            offset = 1
        elif function.bound_first_param == "instance" and bound is None and positional:
            pass  # unbound call through the class: the instance is the first argument
        given = list(args.positional)
        star = params.star_arg if isinstance(params.star_arg, cst.Param) else None
        for index, param in enumerate(positional[offset:]):
            if index < len(given):
                values[param.name.value] = given[index]
        extra = given[len(positional) - offset:] if len(given) > len(positional) - offset else []
        if star is not None:
            values[star.name.value] = Seq("tuple", None, UNKNOWN) if args.unknown else sequence("tuple", extra)
        keywords = dict(args.keywords)
        named = {p.name.value for p in (*positional, *params.kwonly_params)}
        for name in list(keywords):
            if name in named:
                values[name] = keywords.pop(name)
        if params.star_kwarg is not None:
            values[params.star_kwarg.name.value] = Mapping(join_all(keywords.values()))
        for param in (*positional, *params.kwonly_params):
            name = param.name.value
            if name in values:
                continue
            if args.unknown:
                values[name] = UNKNOWN
            elif param.default is not None:
                values[name] = self.static_value(param.default, function.module)
            else:
                values[name] = UNKNOWN  # a required argument not passed: the call fails in eager too
        return values

    def analyse(self, function: FunctionInfo, context: Context, report_to: FunctionInfo | None = None) -> Value:
        node_id = id(function.node)
        self._reached.add(node_id)
        self.halted = False
        self.returned_checked = False
        if not self.after_failure and self.alone is None and not self.guessing:
            self._live.add(node_id)
            if report_to is not None:
                self._live.add(id(report_to.node))
        key = (node_id, id(context.owner), context, self.after_failure > 0)
        known = self._contexts.setdefault(node_id, set())
        if key not in self._summaries and len(known) >= _MAX_CONTEXTS and not context.root:
            context = Context(tuple((name, widen(value)) for name, value in context.params), context.owner,
                              context.definite, context.type_checked, context.root, context.guessed)
            key = (node_id, id(context.owner), context, self.after_failure > 0)
            if key not in self._summaries and len(known) >= 2 * _MAX_CONTEXTS:
                return UNKNOWN
        summary = self._summaries.get(key)
        if summary is not None:
            self.halted, self.returned_checked = summary.halts, summary.type_checked
            return summary.returned if summary.returned is not None else UNKNOWN  # None: still being analysed
        if self._depth >= _MAX_DEPTH or self._analyses >= _MAX_ANALYSES:
            return UNKNOWN
        known.add(key)
        summary = self._summaries[key] = _Analysis()
        self._analyses += 1
        self._depth += 1
        try:
            trace = FunctionTrace(self, function, context, report_to or function)
            walker = FlowWalker(trace, self._pruned(function))
            falls_through = walker.run(function.node)
            summary.halts = trace.halted
            summary.type_checked = trace.return_checked
            returned = trace.return_value
            if falls_through or returned is None:
                returned = NONE if returned is None else join(returned, NONE)
            if is_generator(function.node):
                returned = Seq("generator", None, trace.yielded if trace.yielded is not None else UNKNOWN)
        except RecursionError:
            returned = UNKNOWN
        finally:
            self._depth -= 1
        summary.returned = returned
        self.halted, self.returned_checked = summary.halts, summary.type_checked
        return returned

    def _pruned(self, function: FunctionInfo) -> set[int]:
        entry = self.policy.captured.get(function.node)
        if entry is not None:
            return entry.pruned
        return set()

    def registrations(self, cls: ClassInfo) -> dict[str, str]:
        """`register_buffer` / `register_parameter` / `add_module` names of a class and its bases, by kind."""
        found = self._registrations.get(id(cls))
        if found is None:
            found = {}
            for current in self.project.mro(cls):
                for method in current.methods.values():
                    collector = Registrations()
                    walk(method.node, collector)
                    for attribute, kind in collector.found.items():
                        found.setdefault(attribute, kind)
            self._registrations[id(cls)] = found
        return found

    def container_elements(self, info, cls: ClassInfo, name: str | None = None) -> tuple[frozenset, tuple | None]:
        """The classes of the modules a container attribute holds, from the expression `__init__` assigns
        (`nn.Sequential(Block(), nn.ReLU())`, `nn.ModuleList([Block() for _ in range(n)])` or of a generator) or,
        for one created empty, what `__init__` appends to it (`name`: the attribute), and their order when it is
        known: (classes, order). A class is a project ClassInfo or a torch.nn qualified name."""
        if len(info.init_values) != 1:
            return frozenset(), None
        value = info.init_values[0]
        node, imports = unless_none(value.node), value.imports
        if not isinstance(node, cst.Call):
            return frozenset(), None
        kind = CONTAINER_KINDS.get(imports.qualify(node.func) or "")
        if kind is None:
            return frozenset(), None
        items: list[cst.BaseExpression | None] = []
        appended_in_order = True
        if not node.args and name is not None and kind in ("ModuleList", "Sequential") and info.filled_in_init:
            init = self.project.find_method(cls, "__init__")
            items, appended_in_order = appended(init.node, name) if init is not None else ([None], False)
            imports = init.module.imports if init is not None else imports
        elif kind == "Sequential":
            items = [arg.value if not arg.star and arg.keyword is None else None for arg in node.args]
        elif node.args and not node.args[0].star:
            argument = node.args[0].value
            if isinstance(argument, (cst.List, cst.Tuple)):
                items = [e.value if isinstance(e, cst.Element) else None for e in argument.elements]
            elif isinstance(argument, (cst.ListComp, cst.GeneratorExp)):
                items = [argument.elt]
            elif isinstance(argument, cst.Dict):
                items = [e.value if isinstance(e, cst.DictElement) else None for e in argument.elements]
            else:
                items = [None]
        order = [element_class(self.project, item, imports) for item in items]
        classes = frozenset(c for found in order if found is not None
                            for c in (found if isinstance(found, frozenset) else (found,)))
        complete = bool(order) and all(c is not None for c in order)
        return (classes if complete else frozenset()), (tuple(order) if complete and appended_in_order else None)

    def autowrapped_globals(self, module: ModuleInfo) -> bool:
        """Whether the tracer patches the `math` functions a module imported by name: it patches the globals of
        the root forward's module and of each module whose nn.Module forward it calls (`_autowrap_check`)."""
        if id(module) not in self._autowrapped:
            self._autowrapped[id(module)] = any(
                self.project.is_module_class(cls) and "forward" in cls.methods for cls in module.classes.values())
        return self._autowrapped[id(module)]

    # -- static values ----------------------------------------------------------------------------------------
    def static_value(self, node: cst.BaseExpression, module: ModuleInfo, depth: int = 0) -> Value:
        """The value of an expression evaluated at import time (a default, a global, a class attribute): never a
        Proxy."""
        constant = literal_value(node)
        if constant is not NOT_CONSTANT:
            return Const(constant)
        if isinstance(node, (cst.Tuple, cst.List)):
            kind = "tuple" if isinstance(node, cst.Tuple) else "list"
            if any(isinstance(e, cst.StarredElement) for e in node.elements):
                return Seq(kind, None, CONCRETE)
            return sequence(kind, (self.static_value(e.value, module, depth + 1) for e in node.elements))
        if isinstance(node, cst.Dict):
            return Mapping(CONCRETE)
        if isinstance(node, (cst.Name, cst.Attribute)):
            if isinstance(node, cst.Name) and node.value in module.globals and depth < 4:
                cache_key = (id(module), node.value)
                if cache_key not in self._static_cache:
                    self._static_cache[cache_key] = CONCRETE  # cycles
                    self._static_cache[cache_key] = self.static_value(module.globals[node.value], module, depth + 1)
                return self._static_cache[cache_key]
            qualified = module.imports.qualify(node)
            if qualified is not None:
                return self.global_value(qualified)
        return CONCRETE

    def global_value(self, qualified: str) -> Value:
        """A module-level object by qualified name: a class, a known constant, or some concrete value."""
        if qualified in ("math.pi", "math.e", "math.inf", "math.tau"):
            return Const(getattr(math, qualified[5:]))
        head, _, last = qualified.rpartition(".")
        if head == "builtins" and last in _BUILTIN_TYPES:
            return TypeValue(qualified)
        if qualified in ("torch.Tensor", "torch.fx.Proxy", PROXY_TYPE) or (
                qualified.startswith("torch.nn.") and is_torch_module_base(qualified)):
            return TypeValue(qualified)
        if head == "torch" and (last.startswith(("float", "int", "uint", "bfloat", "complex")) or last == "bool"):
            return Concrete("dtype")
        cls = self.project.resolve_class(qualified)
        if cls is not None:
            return TypeValue(cls.qualname)
        if last[:1].isupper() and not last.isupper():
            return TypeValue(qualified)
        return CONCRETE


@dataclass
class Arguments:
    """What a call passes: positional values, keyword values, and whether `*`/`**` passed an unknown number."""

    positional: list[Value] = field(default_factory=list)
    keywords: dict[str, Value] = field(default_factory=dict)
    unknown: bool = False

    def all(self) -> list[Value]:
        return [*self.positional, *self.keywords.values()]

    def holds_proxy(self) -> bool:
        return any(holds_proxy(value) for value in self.all())

    def may_hold_proxy(self) -> bool:
        return any(may_hold_proxy(value) for value in self.all())  # what `*`/`**` passed is among them


class FunctionTrace(FlowDomain[Value]):
    """One traced function in one context: the flow walker's domain, which evaluates each statement as
    symbolic_trace runs it and reports what fails."""

    unknown = UNKNOWN
    walks_try = True
    walks_simple_suites = True

    def __init__(self, model: TracingModel, function: FunctionInfo, context: Context,
                 report_to: FunctionInfo | None = None) -> None:
        self.model = model
        self.report_to = report_to or function
        self.yielded: Value | None = None
        self.nested_defs = nested_definitions(function.node)
        self.project = model.project
        self.function = function
        self.context = context
        self.module = function.module
        self.imports = function.module.imports
        self.owner = context.owner
        self.self_name = first_param_name(function.node) if function.bound_first_param == "instance" else None
        self.locals = assigned_names(function.node) | set(_parameter_names(function, with_self=True))
        self.return_value: Value | None = None
        self.return_checked = False  # a Proxy's type decided something before a `return` (`return x is not None`)
        self.frame: Frame | None = None
        self.scopes: list[dict[str, Value]] = []  # comprehension variables, innermost last
        # a generator expression -> the node on the line CPython makes it at (its opening parenthesis)
        self.generators_made_at: dict[int, cst.CSTNode] = {}
        self.quiet = 0
        self.type_checks = 0  # decisions a Proxy's type made so far in this walk
        self.helper_checks = 0  # answers of called helpers a Proxy's type decided (for assertions and raises only)
        self.last_check: cst.CSTNode | None = None
        self._stash: dict[int, Value] = {}
        self._iterated: dict[int, Value] = {}
        self._loop_bodies: dict[int, Frame] = {}
        self._decisions: dict[int, bool | None] = {}
        self._try_bodies: list[tuple[set[int], list[cst.ExceptHandler]]] | None = None
        self.halted = False  # a statement every run reaches raised: symbolic_trace never runs what follows
        self.static_forward_reported = False
        self.undecided = 0  # inside a branch of a conditional expression or `and`/`or` whose test is undecided

    # -- reporting --------------------------------------------------------------------------------------------
    def report(self, result: TraceResult) -> None:
        if self.quiet:
            return
        if self._caught(result):
            return
        self.model.report(self.report_to, result)
        if result.raises and self.definite:
            self.halted = True

    def report_static_forward(self, node: cst.CSTNode, value: Value) -> None:
        """The root module, given to a static forward, used as a tensor: the first use raises (TypeError)."""
        if not self.static_forward_reported:
            self.static_forward_reported = True
            first = first_param_name(self.function.node) if self.context.root else None
            self.report(StaticForwardModule(node, first or ""))

    def called(self, call: Callable[[], Value]) -> Value:
        """Makes a project call (the model analyses the callee): after a failure, as code no trace runs; when
        the callee always raises and the call is on every run's path, the trace stops here too."""
        if self.halted:
            self.model.after_failure += 1
            try:
                return call()
            finally:
                self.model.after_failure -= 1
        returned = call()
        if self.model.halted and self.definite and not self.quiet:
            self.halted = True
        if self.model.returned_checked and isinstance(returned, Const):  # a Proxy's type decided it: `p is not None`
            self.helper_checks += 1
        return returned

    @contextmanager
    def alternatives(self):
        """Calls of which one runs (the classes a module may be an instance of): each is analysed as if it were
        the one, and the trace stops after them only when each stops. Yields `either(value)`, which closes one."""
        before = self.halted
        halts: list[bool] = []

        def either(value: Value) -> Value:
            halts.append(self.halted)
            self.halted = before
            return value

        try:
            yield either
        finally:
            self.halted = before or (bool(halts) and all(halts))

    def _caught(self, result: TraceResult) -> bool:
        if self._try_bodies is None:
            self._try_bodies = try_bodies(self.function.node)
        if not self._try_bodies:
            return False
        caught_by = _CAUGHT_BY.get(result.exception, {result.exception}) | {"Exception", "BaseException"}
        node_id = id(result.node)
        for inside, handlers in self._try_bodies:
            if node_id not in inside:
                continue
            for handler in handlers:
                if handler.type is None:
                    return True
                types = handler.type.elements if isinstance(handler.type, cst.Tuple) else None
                names = [e.value for e in types] if types is not None else [handler.type]
                for name in names:
                    qualified = self.imports.qualify(name) or ""
                    if qualified.rpartition(".")[2] in caught_by:
                        return True
        return False

    @property
    def definite(self) -> bool:
        """Whether the statement being read runs on every run of the root: no undecided test around it, and no
        loop but over a container known to be non-empty."""
        frame = self.frame
        return self.context.definite and frame is not None and (
            frame.level == 0 or frame.values.get(_DEFINITE) == Const(frame.level))

    @property
    def trusts_type_checks(self) -> bool:
        return not self.context.guessed

    # -- flow hooks -------------------------------------------------------------------------------------------
    def initial(self) -> dict[str, Value]:
        return self.context.values()

    def read(self, reads: Reads, statement: cst.CSTNode, frame: Frame) -> None:
        self.frame = frame
        value = getattr(statement, "value", None)
        if isinstance(value, cst.GeneratorExp) and value.lpar:  # `q, k = (` on this line, the generator below
            self.generators_made_at[id(value)] = statement
        if isinstance(statement, cst.If):
            self._decisions[id(statement.test)] = self.truth(statement.test, "if", statement)
        elif isinstance(statement, cst.While):
            self._decisions[id(statement.test)] = self.truth(statement.test, "while", statement)
        elif isinstance(statement, cst.For):
            iterated = self.ev(statement.iter)
            self._iterated[id(statement)] = iterated
            self._stash[id(statement)] = self.iterate(iterated, statement.iter, "for")
        elif isinstance(statement, cst.With):
            for item in statement.items:
                self._stash[id(item)] = self.ev(item.item)
        elif isinstance(statement, (cst.Assign, cst.AugAssign)):
            self._stash[id(statement)] = self.ev(statement.value)
        elif isinstance(statement, cst.AnnAssign):
            self._stash[id(statement)] = self.ev(statement.value) if statement.value is not None else OPAQUE
        elif isinstance(statement, cst.Assert):
            self._assert(statement)
        elif isinstance(statement, cst.Return):
            self._stash[id(statement)] = self.ev(statement.value) if statement.value is not None else NONE
        elif isinstance(statement, cst.Expr):
            self.ev(statement.value)
        elif isinstance(statement, cst.Raise):
            self._raise(statement)
        elif isinstance(statement, cst.Del):
            self._delete(statement.target)

    def decide(self, test: cst.BaseExpression, frame: Frame) -> bool | None:
        return self._decisions.get(id(test))

    def deferred(self, item, name) -> None:
        pass

    def assign(self, node: cst.Assign, frame: Frame) -> None:
        value = self._stash.pop(id(node), UNKNOWN)
        for target in node.targets:
            self.bind(target.target, value, frame)

    def annotated_assign(self, node: cst.AnnAssign, frame: Frame) -> None:
        value = self._stash.pop(id(node), UNKNOWN)
        if node.value is not None:
            self.bind(node.target, value, frame)

    def augmented_assign(self, node: cst.AugAssign, frame: Frame) -> None:
        value = self._stash.pop(id(node), UNKNOWN)
        target = node.target
        if isinstance(target, cst.Name):
            old = self.name_value(target.value)
            frame.bind(target.value, self.binary(old, value, node.operator))
        elif isinstance(target, cst.Subscript):
            self.item_assignment(target, value)
        else:
            self.ev(target.value) if isinstance(target, cst.Attribute) else None

    def for_target(self, node: cst.For, outer: Frame, body: Frame) -> None:
        element = self._stash.pop(id(node), UNKNOWN)
        iterated = self._iterated.pop(id(node), None)
        self.bind(node.target, element, body, source=None)
        self._loop_bodies[id(node)] = body
        if iterated is not None and non_empty(iterated) and (
                outer.level == 0 or outer.values.get(_DEFINITE) == Const(outer.level)):
            body.values[_DEFINITE] = Const(body.level)  # the body runs at least once on every run

    def with_target(self, item: cst.WithItem, frame: Frame) -> None:
        value = self._stash.pop(id(item), UNKNOWN)
        if item.asname is not None:
            self.bind(item.asname.name, value, frame)

    def walrus(self, node: cst.NamedExpr, frame: Frame) -> None:
        pass  # bound when the expression is evaluated

    def refine(self, test, body, orelse) -> None:
        pass

    def asserted(self, node, frame) -> None:
        pass

    def returned(self, node: cst.Return, frame: Frame) -> None:
        value = self._stash.pop(id(node), NONE)
        self.return_checked = self.return_checked or self.type_checks + self.helper_checks > 0
        self.return_value = value if self.return_value is None else join(self.return_value, value)

    def uncertain(self, test) -> bool:
        return False

    def join(self, name, first, second):
        return join(first, second)

    def join_new(self, name, first, second, node, frame):
        return join(first, second)

    def one_branch(self, name, in_body, node, frame) -> None:
        pass

    def uncertain_join(self, before, after):
        return join(before, after)

    def loop_join(self, before, after):
        return join(before, after)

    def first_set_in_loop(self, name, node, frame) -> None:
        # After a `for` loop a name its body binds holds what the last round left (the target: the last item);
        # after no round at all, reading it raises UnboundLocalError, eagerly as when tracing, so what the body
        # leaves is the only value a read after the loop can see.
        body = self._loop_bodies.get(id(node))
        if body is not None and name in body.values:
            frame.bind(name, body.values[name])

    # -- statements -------------------------------------------------------------------------------------------
    def _assert(self, statement: cst.Assert) -> None:
        before = self.type_checks + self.helper_checks
        decided = self.truth(statement.test, "assert", statement)
        if statement.msg is not None:
            self.ev(statement.msg)
        if decided is False and self.type_checks + self.helper_checks > before:
            self._type_check_raises(statement, "AssertionError", "assert")

    def _raise(self, statement: cst.Raise) -> None:
        raised = None
        if statement.exc is not None:
            self.quiet += 1
            try:
                self.ev(statement.exc)
            finally:
                self.quiet -= 1
            expression = statement.exc.func if isinstance(statement.exc, cst.Call) else statement.exc
            raised = self.imports.qualify(expression) if isinstance(expression, (cst.Name, cst.Attribute)) else None
        if self.type_checks or self.helper_checks or self.context.type_checked:
            self._type_check_raises(statement, raised, "raise")

    def _type_check_raises(self, node: cst.CSTNode, raised: str | None, statement: str) -> None:
        if self.definite and self.trusts_type_checks:
            self.report(TypeCheckRaises(node, raised, self.last_check, statement))

    # -- binding ----------------------------------------------------------------------------------------------
    def bind(self, target: cst.BaseExpression, value: Value, frame: Frame,
             source: cst.BaseExpression | None = None) -> None:
        if isinstance(target, cst.Name):
            frame.bind(target.value, value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            elements = target.elements
            starred = [i for i, e in enumerate(elements) if isinstance(e, cst.StarredElement)]
            parts = self.unpack(value, len(elements), bool(starred), target)
            for element, part in zip(elements, parts):
                self.bind(element.value, part, frame)
        elif isinstance(target, cst.Subscript):
            self.item_assignment(target, value)
        elif isinstance(target, cst.Attribute):
            if not (isinstance(target.value, cst.Name) and target.value.value == self.self_name):
                self.ev(target.value)
            elif not self.is_rebound(target.value.value):
                frame.bind(_SELF + target.attr.value, value)  # what later reads of `self.<name>` here see

    def unpack(self, value: Value, count: int, starred: bool, node: cst.CSTNode) -> list[Value]:
        """The values of `a, b = value` (one per target; a starred target gets a list)."""
        if isinstance(value, Proxy):
            if starred:  # `a, *rest = p` iterates; `a, b = p` is special-cased (UNPACK_SEQUENCE)
                self.report(ProxyIterated(node, "star-target"))
                return [OPAQUE] * count
            return [PROXY] * count
        if isinstance(value, Seq):
            if value.items is not None and not starred and len(value.items) == count:
                return list(value.items)
            return [Seq("list", None, value.item) if starred else value.item] * count
        if isinstance(value, Const) and isinstance(value.value, tuple) and len(value.value) == count and not starred:
            return [Const(v) for v in value.value]
        if isinstance(value, Module):
            return [Module()] * count
        if isinstance(value, Mapping):
            return [CONCRETE] * count
        maybe = may_hold_proxy(value)
        return [Unknown(maybe)] * count

    def _delete(self, target: cst.BaseExpression) -> None:
        targets = [e.value for e in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else [target]
        for item in targets:
            if isinstance(item, cst.Subscript) and isinstance(self.ev(item.value), Proxy):
                self.report(ProxyItemAssigned(item, deleted=True))

    def item_assignment(self, target: cst.Subscript, value: Value) -> None:
        base = self.ev(target.value)
        index = self.subscript_index(target)
        if isinstance(base, Proxy):
            self.report(ProxyItemAssigned(target))
            return
        if isinstance(base, Seq) and isinstance(index, Proxy):
            self.report(IndexedByProxy(target, base.kind if base.kind in ("list", "tuple") else "list"))
            return
        if isinstance(base, Mapping) and isinstance(target.value, cst.Name) and self.frame is not None:
            name = target.value.value
            if name in self.frame.values:
                self.frame.values[name] = Mapping(join(base.item, value), base.proxy_key or isinstance(index, Proxy))
        elif isinstance(base, Seq) and isinstance(target.value, cst.Name) and self.frame is not None:
            name = target.value.value
            if name in self.frame.values and may_hold_proxy(value):
                self.frame.values[name] = Seq(base.kind, None, join(base.item, value))

    # -- names ------------------------------------------------------------------------------------------------
    def name_value(self, name: str) -> Value:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        frame = self.frame
        if frame is not None and name in frame.values:
            return frame.values[name]
        if name in self.nested_defs:
            node = self.nested_defs[name]
            self.model.closures[id(node)] = (node, self.function)
            return Closure(id(node))
        if name in self.locals:
            return UNKNOWN  # a local not bound on this path (first bound in a loop or one branch)
        if name == "None":
            return NONE
        if name in ("True", "False"):
            return Const(name == "True")
        return self.model.static_value(cst.Name(name), self.module)

    def is_local(self, name: str) -> bool:
        return any(name in scope for scope in self.scopes) or name in self.locals or name in self.nested_defs

    def global_name(self, node: cst.BaseExpression) -> str | None:
        """The qualified name of an expression that refers to a module-level object (not a local), if any."""
        root = node
        while isinstance(root, cst.Attribute):
            root = root.value
        if not isinstance(root, cst.Name) or self.is_local(root.value):
            return None
        return self.imports.qualify(node)

    # -- truth ------------------------------------------------------------------------------------------------
    def truth(self, test: cst.BaseExpression, construct: str, anchor: cst.CSTNode | None = None) -> bool | None:
        """What `bool(test)` is when the code runs (None: unknown); reports `bool()` of a Proxy. `anchor`: the
        statement (or conditional expression) whose test this is: CPython 3.11 compiles the test's jumps with the
        anchor's line, except after a comparison (the jump then has the comparison's line), so that is the line a
        traceback names when a Proxy that is not a comparison's result is made a bool there."""
        if isinstance(test, cst.BooleanOperation):
            left = self.truth(test.left, "and/or" if construct in ("if", "while", "ternary") else construct, anchor)
            is_and = isinstance(test.operator, cst.And)
            if left is (not is_and):  # `True or ...`, `False and ...`: the right side is not evaluated
                return left
            right = self.truth(test.right, "and/or" if construct in ("if", "while", "ternary") else construct, anchor)
            if left is None:
                if right is (not is_and):
                    return right
                return None
            return right
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            inner = self.truth(test.expression, construct, anchor)
            return None if inner is None else not inner
        at = test if anchor is None or isinstance(test, cst.Comparison) else anchor
        return self.truth_of(self.ev(test), at, construct)

    def truth_of(self, value: Value, node: cst.CSTNode, construct: str) -> bool | None:
        if isinstance(value, Proxy):
            self.report(ProxyAsBool(node, construct))
            return None
        if isinstance(value, Const):
            try:
                return bool(value.value)
            except Exception:  # noqa: BLE001
                return None
        if isinstance(value, Seq):
            if value.kind == "generator":
                return True
            return bool(value.items) if value.items is not None else None
        if isinstance(value, Module):
            return None if value.container else True
        if isinstance(value, TypeValue):
            return True
        return None

    # -- expressions ------------------------------------------------------------------------------------------
    def ev(self, node: cst.BaseExpression | None) -> Value:
        if node is None:
            return NONE
        method = getattr(self, f"e_{type(node).__name__}", None)
        if method is None:
            for child in node.children:
                if isinstance(child, cst.BaseExpression):
                    self.ev(child)
            return UNKNOWN
        return method(node)

    def quietly(self, node: cst.BaseExpression) -> Value:
        self.quiet += 1
        try:
            return self.ev(node)
        finally:
            self.quiet -= 1

    def e_Name(self, node: cst.Name) -> Value:
        return self.name_value(node.value)

    def e_Integer(self, node: cst.Integer) -> Value:
        return Const(node.evaluated_value)

    def e_Float(self, node: cst.Float) -> Value:
        return Const(node.evaluated_value)

    def e_Imaginary(self, node) -> Value:
        return Concrete("complex")

    def e_SimpleString(self, node: cst.SimpleString) -> Value:
        value = node.evaluated_value
        return Const(value) if isinstance(value, str) else Concrete("str")

    def e_ConcatenatedString(self, node) -> Value:
        return Concrete("str")

    def e_FormattedString(self, node: cst.FormattedString) -> Value:
        for part in node.parts:
            if isinstance(part, cst.FormattedStringExpression):
                value = self.ev(part.expression)
                if isinstance(value, Proxy) and part.format_spec:
                    self.report(BuiltinOnProxy(part, "format"))  # `object.__format__` takes no spec
        return Concrete("str")

    def e_Ellipsis(self, node) -> Value:
        return Concrete("ellipsis")

    def e_Lambda(self, node: cst.Lambda) -> Value:
        self.model.closures[id(node)] = (node, self.function)
        return Closure(id(node))

    def e_Await(self, node: cst.Await) -> Value:
        self.ev(node.expression)
        return UNKNOWN

    def e_Yield(self, node: cst.Yield) -> Value:
        value = node.value
        if isinstance(value, cst.From):
            yielded = self.element_of(self.ev(value.item))
        elif isinstance(value, cst.BaseExpression):
            yielded = self.ev(value)
        else:
            yielded = NONE
        self.yielded = yielded if self.yielded is None else join(self.yielded, yielded)
        return UNKNOWN

    def e_NamedExpr(self, node: cst.NamedExpr) -> Value:
        value = self.ev(node.value)
        if isinstance(node.target, cst.Name) and self.frame is not None and not self.quiet:
            self.frame.bind(node.target.value, value)
        return value

    def e_IfExp(self, node: cst.IfExp) -> Value:
        decided = self.truth(node.test, "ternary", node)
        if decided is True:
            return self.ev(node.body)
        if decided is False:
            return self.ev(node.orelse)
        self.undecided += 1
        body, orelse = self.ev(node.body), self.ev(node.orelse)
        self.undecided -= 1
        return join(body, orelse)

    def e_BooleanOperation(self, node: cst.BooleanOperation) -> Value:
        left_value = self.ev(node.left)
        left = self.truth_of(left_value, node.left, "and/or")
        is_and = isinstance(node.operator, cst.And)
        if left is (not is_and):
            return left_value
        self.undecided += left is None
        right = self.ev(node.right)
        self.undecided -= left is None
        return right if left is not None else join(left_value, right)

    def e_UnaryOperation(self, node: cst.UnaryOperation) -> Value:
        if isinstance(node.operator, cst.Not):
            inner = self.truth(node.expression, "not")
            return Const(not inner) if inner is not None else Concrete("bool")
        value = self.ev(node.expression)
        if isinstance(value, Proxy):
            return PROXY
        if isinstance(value, Const) and isinstance(value.value, (int, float)) and not isinstance(value.value, bool):
            if isinstance(node.operator, cst.Minus):
                return Const(-value.value)
            if isinstance(node.operator, cst.Plus):
                return value
        if isinstance(value, Unknown):
            return value
        return Concrete(kind_of(value))

    def e_BinaryOperation(self, node: cst.BinaryOperation) -> Value:
        return self.binary(self.ev(node.left), self.ev(node.right), node.operator, node)

    def binary(self, left: Value, right: Value, operator: cst.CSTNode, node: cst.CSTNode | None = None) -> Value:
        if _root_argument(left) or _root_argument(right):
            if node is not None:
                self.report_static_forward(node, left if _root_argument(left) else right)
            return OPAQUE  # an nn.Module has no arithmetic: TypeError
        if isinstance(left, Const) and isinstance(left.value, str) and type(operator).__name__ == "Modulo":
            values = right.items if isinstance(right, Seq) and right.items is not None else (right,)
            if any(isinstance(v, Proxy) for v in values) and re.search(r"%[-+ #0-9.]*[diouxXeEfFgGc]", left.value):
                if node is not None:
                    self.report(BuiltinOnProxy(node, "format"))  # `%d` needs a number
                return OPAQUE
            return Concrete("str")
        if isinstance(left, Proxy) or isinstance(right, Proxy):
            return PROXY  # the magic methods (and their reflections) record the operation
        if isinstance(left, Const) and isinstance(right, Const):
            folded = fold_constants(left.value, right.value, operator)
            if folded is not NOT_CONSTANT:
                return Const(folded)
        if isinstance(left, Seq) and isinstance(right, Seq) and type(operator).__name__ in ("Add", "AddAssign"):
            if left.items is not None and right.items is not None:
                return sequence(left.kind, left.items + right.items)
            return Seq(left.kind, None, join(left.item, right.item))
        if isinstance(left, Seq) and isinstance(right, (Const, Concrete)) and type(operator).__name__ in (
                "Multiply", "MultiplyAssign"):
            return Seq(left.kind, None, left.item)
        if isinstance(left, Const) and isinstance(left.value, tuple) and isinstance(right, Seq):
            return self.binary(sequence("tuple", (Const(v) for v in left.value)), right, operator)
        if isinstance(right, Const) and isinstance(right.value, tuple) and isinstance(left, Seq):
            return self.binary(left, sequence("tuple", (Const(v) for v in right.value)), operator)
        if isinstance(left, Unknown) or isinstance(right, Unknown):
            return Unknown(may_hold_proxy(left) or may_hold_proxy(right))
        if may_hold_proxy(left) or may_hold_proxy(right):
            return UNKNOWN
        a, b = kind_of(left), kind_of(right)
        if "tensor" in (a, b):
            return Concrete("tensor")
        if a == b and a in ("int", "float", "str"):
            return Concrete(a) if not (a == "int" and type(operator).__name__ in ("Divide", "DivideAssign")) else Concrete("float")
        if {a, b} <= {"int", "float", "bool"} and None not in (a, b):
            return Concrete("float")
        return CONCRETE

    def e_Comparison(self, node: cst.Comparison) -> Value:
        left = self.ev(node.left)
        result: Value | None = None
        last = len(node.comparisons) - 1
        for index, target in enumerate(node.comparisons):
            right = self.ev(target.comparator)
            value = self.compare(left, right, target.operator, node, target)
            if index < last:  # a chain: `a < b < c` calls bool() on `a < b`
                decided = self.truth_of(value, node, "chained comparison")
                if decided is False:
                    return Const(False)
                result = value if result is None else Concrete("bool")
            else:
                result = value if result is None or isinstance(value, Proxy) else (
                    value if result == Const(True) else Concrete("bool"))
            left = right
        return result if result is not None else Concrete("bool")

    def compare(self, left: Value, right: Value, operator: cst.CSTNode, node: cst.Comparison,
                target: cst.ComparisonTarget) -> Value:
        if isinstance(operator, (cst.Is, cst.IsNot)):
            same = self.identical(left, right, node, target)
            if same is None:
                return Concrete("bool")
            return Const(same if isinstance(operator, cst.Is) else not same)
        if isinstance(operator, (cst.In, cst.NotIn)):
            contained = self.contains(right, left, target)
            if contained is None:
                return Concrete("bool")
            return Const(contained if isinstance(operator, cst.In) else not contained)
        if isinstance(left, Proxy) or isinstance(right, Proxy):
            return PROXY
        same_class = self.same_class(left, right, node)
        if same_class is not None and isinstance(operator, (cst.Equal, cst.NotEqual)):
            return Const(same_class if isinstance(operator, cst.Equal) else not same_class)
        if isinstance(left, Const) and isinstance(right, Const):
            folded = compare_constants(left.value, right.value, operator)
            if folded is not NOT_CONSTANT:
                return Const(folded)
        if isinstance(left, Unknown) or isinstance(right, Unknown):
            return Unknown(may_hold_proxy(left) or may_hold_proxy(right))
        if "tensor" in (kind_of(left), kind_of(right)):
            return Concrete("tensor")
        return Concrete("bool")

    def identical(self, left: Value, right: Value, node: cst.Comparison, target: cst.ComparisonTarget) -> bool | None:
        for value, other, expression in ((left, right, node.left), (right, left, target.comparator)):
            if other == NONE:
                if isinstance(value, Proxy):
                    self.type_checks += 1
                    self.last_check = node
                    self._none_check(expression, node)
                    return False
                if isinstance(value, (Seq, Mapping, Module, TypeValue)):
                    return False
                if isinstance(value, Const):
                    return value.value is None
                if isinstance(value, Concrete) and value.kind is not None:
                    return False
                return None
        same_class = self.same_class(left, right, node)
        if same_class is not None:
            return same_class
        if isinstance(left, Const) and isinstance(right, Const) and isinstance(left.value, bool) and isinstance(right.value, bool):
            return left.value is right.value
        return None

    def same_class(self, left: Value, right: Value, node: cst.CSTNode) -> bool | None:
        """Whether two class objects are the same: `type(p)` is `Proxy`, which no other class is (a global that is
        not a known class is some other object)."""
        for value, other in ((left, right), (right, left)):
            if value == TypeValue(PROXY_TYPE):
                if isinstance(other, (TypeValue, Const, Concrete)):
                    self.type_checks += 1
                    self.last_check = node
                    return isinstance(other, TypeValue) and other.name in (PROXY_TYPE, "torch.fx.Proxy")
                return None
        if isinstance(left, TypeValue) and isinstance(right, TypeValue):
            return left.name == right.name
        return None

    def _none_check(self, expression: cst.BaseExpression, node: cst.Comparison) -> None:
        if self.context.root and isinstance(expression, cst.Name) and expression.value in dict(self.context.params):
            self.report(ParameterNoneCheck(node, expression.value))

    def contains(self, container: Value, element: Value, target: cst.ComparisonTarget) -> bool | None:
        if isinstance(container, Proxy):
            self.report(ProxyIterated(target.comparator, "in"))
            return None
        if isinstance(container, Seq) and container.kind != "generator":
            items = container.items
            if isinstance(element, Proxy) and (items is None or items):
                # each item is compared with `==` and the result made a bool
                if items is not None or not isinstance(container.item, Unknown):
                    self.report(ProxyAsBool(target, "in"))
                return None
            if items is not None and any(isinstance(item, Proxy) for item in items):
                self.report(ProxyAsBool(target, "in"))
                return None
            if isinstance(element, Const) and items is not None and all(isinstance(i, Const) for i in items):
                return any(element.value == i.value for i in items)
            if isinstance(element, Const) and items is None and (container.item == EMPTY or isinstance(
                    container.item, Const) and never_equal(element.value, container.item.value)):
                return False  # every item is one other constant: `True in [not isinstance(f, Tensor) for f in fs]`
            if isinstance(element, TypeValue) and items is not None and all(isinstance(i, TypeValue) for i in items):
                return any(element.name == i.name for i in items)
            return None
        if isinstance(container, Const) and isinstance(container.value, (tuple, str)):
            if isinstance(element, Proxy):
                if isinstance(container.value, tuple) and container.value:
                    self.report(ProxyAsBool(target, "in"))
                return None
            if isinstance(element, Const):
                try:
                    return element.value in container.value
                except TypeError:
                    return None
            return None
        if isinstance(container, Mapping) and isinstance(element, Proxy):
            return False  # hashed by identity: a Proxy is no key of a concrete dict
        return None

    # -- attributes -------------------------------------------------------------------------------------------
    def e_Attribute(self, node: cst.Attribute) -> Value:
        qualified = self.global_name(node)
        if qualified is not None:
            return self.model.global_value(qualified)
        base = node.value
        if isinstance(base, cst.Name) and base.value == self.self_name and not self.is_rebound(base.value):
            if self.frame is not None and _SELF + node.attr.value in self.frame.values:
                return self.frame.values[_SELF + node.attr.value]  # assigned earlier in this function
            return self.own_attribute(node, node.attr.value)
        return self.attribute(self.ev(base), node.attr.value)

    def is_rebound(self, name: str) -> bool:
        value = self.name_value(name)
        return not isinstance(value, Module)

    def attribute(self, value: Value, name: str) -> Value:
        if isinstance(value, Proxy):
            return Proxy(_TENSOR_ATTRIBUTES.get(name, "value"))
        if isinstance(value, Module):
            return self.module_attribute(value, name)
        if isinstance(value, TypeValue):
            if name == "__name__":
                return Const(value.name.rpartition(".")[2])
            return CONCRETE
        if isinstance(value, Concrete) and value.kind == "tensor":
            if name == "shape":
                return Seq("tuple", None, Concrete("int"))
            if name in ("ndim",):
                return Concrete("int")
            if name == "dtype":
                return Concrete("dtype")
            if name == "device":
                return Concrete("device")
            return Concrete("tensor") if name in ("T", "mT", "data", "real", "imag") else CONCRETE
        if isinstance(value, Unknown):
            # A value that may hold a Proxy and has this attribute: a tuple, list or dict has none but their
            # methods, so what is left is a Proxy (or an object the model does not know).
            return PROXY if value.maybe_proxy and name not in _CONTAINER_METHODS else value
        return CONCRETE

    def own_attribute(self, node: cst.CSTNode, name: str) -> Value:
        """`self.<name>`; absent from the root built with its defaults: AttributeError, where every run reads it."""
        if self.owner and self.definite and not self.undecided and getattr(self.name_value(self.self_name),
                                                                           "with_defaults", 0):
            if (skipped := absent_with_defaults(self.project, self.owner, name)) is not None:
                self.report(AbsentAttribute(node, name, skipped.test, skipped.when))
                return OPAQUE
        return self.self_attribute(name)

    def self_attribute(self, name: str) -> Value:
        classes = [cls for cls in ([self.owner] if self.owner else [])]
        return self.module_attribute(Module(frozenset(classes)), name)

    def module_attribute(self, module: Module, name: str) -> Value:
        values = []
        project_classes = [cls for cls in module.classes if isinstance(cls, ClassInfo)]
        for cls in project_classes:
            values.append(self.class_attribute(cls, name))
        for qualified in module.classes:
            if isinstance(qualified, str):
                values.append(PROXY if name in ("weight", "bias") else CONCRETE)
        if not values:
            return UNKNOWN if name in ("weight", "bias") else (Concrete("bool") if name == "training" else UNKNOWN)
        return join_all(values)

    def class_attribute(self, cls: ClassInfo, name: str) -> Value:
        if name == "training":
            return Concrete("bool")
        info = self.project.attributes(cls).get(name)
        method = self.project.find_method(cls, name)
        if info is None:
            if method is not None:
                if method.is_property:
                    return self.model.analyse(method, self.model._context(method, cls, {}, definite=self.definite))
                return Concrete("callable")
            return UNKNOWN if name in ("weight", "bias") else CONCRETE
        if info.registered:
            kind = self._registration(cls, name)
            if kind == "parameter":
                return PROXY
            if kind == "buffer":
                return Concrete("tensor")
            if kind == "module":
                return Module(self._module_classes(info))
        kinds = info.kinds
        if any(isinstance(kind, CallResult) and kind.qualified in PARAMETER_CLASSES for kind in kinds):
            return PROXY
        if self._assigned_in_traced_code(cls, info):
            return UNKNOWN  # set while tracing: maybe a Proxy
        flag = class_flag(self.project, cls, name)
        if flag is not None:
            return Const(flag)
        containers = {kind for kind in kinds if kind in ("ModuleList", "Sequential", "ModuleDict")}
        if len(containers) == 1:
            classes, order = self.model.container_elements(info, cls, name)
            return Module(classes, containers.pop(), order=order)
        if containers:
            return Module()
        if "module" in kinds or info.constructors and any(
                self._is_module_constructor(c) for c in info.constructors):
            return Module(self._module_classes(info))
        if "list-of-modules" in kinds:
            return Seq("list", None, Module())
        if "dict-of-modules" in kinds:
            return Mapping(Module())
        values = [self.model.static_value(value.node, cls.module) for value in info.init_values
                  if isinstance(value.node, cst.BaseExpression)]
        if info.class_value is not None:
            values.append(self.model.static_value(info.class_value, cls.module))
        if values and all(isinstance(v, (Const, Seq, Mapping, TypeValue)) for v in values):
            return join_all(values)
        if kinds and kinds <= {"list", "mixed-list", "empty-container", "literal", "none"} and "list" in kinds:
            return Seq("list", None, CONCRETE)
        if kinds == {"dict"}:
            return Mapping(CONCRETE)
        if any(isinstance(kind, CallResult) and kind.qualified.startswith("torch.") for kind in kinds):
            return Concrete("tensor") if all(isinstance(kind, CallResult) for kind in kinds) else CONCRETE
        return CONCRETE

    def _assigned_in_traced_code(self, cls: ClassInfo, info) -> bool:
        """Whether traced code other than this function may have set the attribute before it is read here: a
        traced method other than `__init__` assigns it. An attribute `__init__` sets and only this function
        reassigns holds its `__init__` value until the reassignment, which the walk of this function sees."""
        others = info.assigned_in - {"__init__"}
        if "__init__" in info.assigned_in and others == {self.function.name} and cls is self.owner:
            return False
        for method_name in others:
            method = self.project.find_method(cls, method_name)
            entry = self.model.policy.captured.get(method.node) if method is not None else None
            if entry is not None and entry.body_captured:
                return True
        return False

    def _registration(self, cls: ClassInfo, name: str) -> str | None:
        return self.model.registrations(cls).get(name)

    def _is_module_constructor(self, qualified: str) -> bool:
        if qualified.startswith("torch.nn."):
            return is_torch_module_base(qualified)
        if _external_module(qualified):
            return True
        cls = self.project.resolve_class(qualified)
        return cls is not None and self.project.is_module_class(cls)

    def _module_classes(self, info) -> frozenset:
        classes = set()
        for qualified in info.constructors:
            if qualified.startswith("torch.") and is_torch_module_base(qualified):
                if qualified not in CONTAINER_KINDS:
                    classes.add(qualified)
                continue
            if _external_module(qualified):
                if built_to_trace(qualified, info.init_values):
                    return frozenset()  # built with the argument that skips its failing check: not modelled
                classes.add(qualified)
                continue
            cls = self.project.resolve_class(qualified)
            if cls is not None and self.project.is_module_class(cls):
                classes.add(cls)
            else:
                return frozenset()  # one of them unknown: what is called is unknown
        return frozenset(classes)

    # -- subscripts -------------------------------------------------------------------------------------------
    def subscript_index(self, node: cst.Subscript) -> Value:
        """The index of a subscript: a Proxy when an index or a slice bound is one (a "slice" kind when only
        slice bounds are)."""
        values = []
        sliced = False
        for element in node.slice:
            index = element.slice
            if isinstance(index, cst.Index):
                values.append(self.ev(index.value))
            elif isinstance(index, cst.Slice):
                sliced = True
                bounds = [self.ev(bound) for bound in (index.lower, index.upper, index.step) if bound is not None]
                if any(isinstance(bound, Proxy) for bound in bounds):
                    values.append(Proxy("slice"))
                else:
                    values.append(Concrete("slice"))
        if len(values) == 1:
            return values[0]
        if any(isinstance(v, Proxy) for v in values):
            return Proxy("slice" if sliced else "value")
        return sequence("tuple", values)

    def e_Subscript(self, node: cst.Subscript) -> Value:
        base = self.ev(node.value)
        index = self.subscript_index(node)
        if isinstance(base, Proxy):
            return Proxy("size" if base.what == "size" else "value")
        if isinstance(base, TypeValue):
            return base  # `List[int]`, `Optional[T]`
        if isinstance(index, Proxy):
            return self._indexed_by_proxy(node, base, index)
        if isinstance(base, Seq):
            if isinstance(index, Const) and isinstance(index.value, int) and base.items is not None:
                try:
                    return base.items[index.value]
                except IndexError:
                    return OPAQUE
            if isinstance(index, Concrete) and index.kind == "slice":
                return Seq(base.kind, None, base.item)
            return base.item
        if isinstance(base, Const) and isinstance(base.value, (tuple, str)):
            if isinstance(index, Const):
                try:
                    return Const(base.value[index.value])
                except Exception:  # noqa: BLE001
                    return OPAQUE
            return Concrete("str") if isinstance(base.value, str) else CONCRETE
        if isinstance(base, Mapping):
            return base.item
        if isinstance(base, Module):
            if isinstance(index, Concrete) and index.kind == "slice":
                return Module(base.classes, base.container)
            return base.element()
        if isinstance(base, Concrete) and base.kind == "tensor":
            return Concrete("tensor")
        if isinstance(base, Unknown):
            return base
        return CONCRETE

    def _indexed_by_proxy(self, node: cst.Subscript, base: Value, index: Proxy) -> Value:
        sliced = index.what == "slice"
        if isinstance(base, Seq) and base.kind in ("list", "tuple"):
            self.report(IndexedByProxy(node, "sequence-slice" if sliced else base.kind))
            return OPAQUE
        if isinstance(base, Const) and isinstance(base.value, (tuple, str)):
            kind = "sequence-slice" if sliced else ("str" if isinstance(base.value, str) else "tuple")
            self.report(IndexedByProxy(node, kind))
            return OPAQUE
        if isinstance(base, Mapping) and not sliced:
            self.report(IndexedByProxy(node, "dict"))
            return OPAQUE
        if isinstance(base, Module) and base.container in ("ModuleList", "Sequential", "ModuleDict"):
            self.report(IndexedByProxy(node, "module-dict" if base.container == "ModuleDict" else "module-list"))
            return OPAQUE
        if isinstance(base, Concrete) and base.kind == "tensor":
            if sliced:
                self.report(IndexedByProxy(node, "tensor-slice"))
                return OPAQUE
            return PROXY  # a real tensor indexed by a Proxy dispatches to __torch_function__
        return UNKNOWN

    # -- displays ---------------------------------------------------------------------------------------------
    def elements(self, elements) -> tuple[list[Value], bool]:
        """The values of a display's elements; False when a starred element makes their number unknown."""
        values: list[Value] = []
        exact = True
        for element in elements:
            if isinstance(element, cst.StarredElement):
                value = self.ev(element.value)
                if isinstance(value, Proxy):
                    self.report(ProxyIterated(element, "star"))
                    exact = False
                elif isinstance(value, Seq) and value.items is not None:
                    values.extend(value.items)
                else:
                    exact = False
                    values.append(self.element_of(value))
            else:
                values.append(self.ev(element.value))
        return values, exact

    def element_of(self, value: Value) -> Value:
        if isinstance(value, Seq):
            return value.item
        if isinstance(value, Const) and isinstance(value.value, (tuple, str)):
            return Concrete(None) if not value.value else join_all(Const(v) for v in value.value)
        if isinstance(value, Module):
            return value.element()
        if isinstance(value, Mapping):
            return CONCRETE
        if isinstance(value, Concrete) and value.kind == "tensor":
            return Concrete("tensor")
        if isinstance(value, Unknown):
            return value
        return CONCRETE

    def e_Tuple(self, node: cst.Tuple) -> Value:
        values, exact = self.elements(node.elements)
        return sequence("tuple", values) if exact else Seq("tuple", None, join_all(values))

    def e_List(self, node: cst.List) -> Value:
        values, exact = self.elements(node.elements)
        return sequence("list", values) if exact else Seq("list", None, join_all(values))

    def e_Set(self, node: cst.Set) -> Value:
        self.elements(node.elements)
        return Concrete("set")

    def e_Dict(self, node: cst.Dict) -> Value:
        values = []
        proxy_key = False
        for element in node.elements:
            if isinstance(element, cst.DictElement):
                key = self.ev(element.key)
                proxy_key = proxy_key or holds_proxy(key)
                values.append(self.ev(element.value))
            elif isinstance(element, cst.StarredDictElement):
                value = self.ev(element.value)
                if isinstance(value, Proxy):
                    self.report(ProxyIterated(element, "double-star"))
                elif isinstance(value, Mapping):
                    values.append(value.item)
                    proxy_key = proxy_key or value.proxy_key
                else:
                    values.append(self.element_of(value))
        return Mapping(join_all(values), proxy_key)

    def _comprehension(self, clause: cst.CompFor, anchor: cst.CSTNode | None = None,
                       made_at: cst.CSTNode | None = None) -> dict[str, Value]:
        """Binds the comprehension's variables in a new scope; `anchor`: the comprehension (the line its `if`
        tests jump at, see `truth`); `made_at`: where CPython 3.11 makes it, the line of its opening bracket: the
        outermost iterable is iterated there, in the enclosing frame (the inner ones at their own lines)."""
        scope: dict[str, Value] = {}
        self.scopes.append(scope)
        outermost = True
        while clause is not None:
            at = made_at if outermost and made_at is not None else clause.iter
            element = self.iterate(self.ev(clause.iter), at, "comprehension")
            outermost = False
            for name, value in self.unpacked_names(clause.target, element):
                scope[name] = value
            for condition in clause.ifs:
                self.truth(condition.test, "comprehension", anchor)
            clause = clause.inner_for_in
        return scope

    def unpacked_names(self, target: cst.BaseExpression, value: Value) -> list[tuple[str, Value]]:
        if isinstance(target, cst.Name):
            return [(target.value, value)]
        if isinstance(target, (cst.Tuple, cst.List)):
            starred = any(isinstance(e, cst.StarredElement) for e in target.elements)
            parts = self.unpack(value, len(target.elements), starred, target)
            found = []
            for element, part in zip(target.elements, parts):
                found.extend(self.unpacked_names(element.value, part))
            return found
        return []

    def _comprehension_value(self, node, kind: str) -> Value:
        made_at = node  # a list, set or dict comprehension starts at its bracket
        if isinstance(node, cst.GeneratorExp) and (not node.lpar or isinstance(node.lpar[0].whitespace_after,
                                                                               cst.ParenthesizedWhitespace)):
            # a call's parenthesis, or its own with the line ending after it: the node a line holds that starts
            # there (the statement or the called name), if known
            made_at = self.generators_made_at.get(id(node), node)
        self._comprehension(node.for_in, node, made_at)
        try:
            if isinstance(node, cst.DictComp):
                self.ev(node.key)
                return Mapping(self.ev(node.value))
            element = self.ev(node.elt)
        finally:
            self.scopes.pop()
        return Seq(kind, None, element)

    def e_ListComp(self, node: cst.ListComp) -> Value:
        return self._comprehension_value(node, "list")

    def e_GeneratorExp(self, node: cst.GeneratorExp) -> Value:
        return self._comprehension_value(node, "generator")

    def e_SetComp(self, node: cst.SetComp) -> Value:
        self._comprehension_value(node, "list")
        return Concrete("set")

    def e_DictComp(self, node: cst.DictComp) -> Value:
        return self._comprehension_value(node, "list")

    def iterate(self, value: Value, node: cst.CSTNode, construct: str) -> Value:
        """The element a loop over `value` binds; reports the iteration of a Proxy."""
        if isinstance(value, Proxy):
            self.report(ProxyIterated(node, construct))
            return OPAQUE
        return self.element_of(value)

    # -- calls ------------------------------------------------------------------------------------------------
    def arguments(self, node: cst.Call) -> Arguments:
        args = Arguments()
        for arg in node.args:
            if isinstance(arg.value, cst.GeneratorExp) and not arg.value.lpar:
                # `f(t for t in xs)`: CPython places the generator at the call's opening parenthesis
                func = node.func
                self.generators_made_at[id(arg.value)] = func.attr if isinstance(func, cst.Attribute) else func
            value = self.ev(arg.value)
            if arg.star == "*":
                if isinstance(value, Proxy):
                    self.report(ProxyIterated(arg, "star"))
                    args.unknown = True
                elif isinstance(value, Seq) and value.items is not None and not args.unknown:
                    args.positional.extend(value.items)
                elif isinstance(value, Const) and isinstance(value.value, tuple) and not args.unknown:
                    args.positional.extend(Const(v) for v in value.value)
                else:
                    args.unknown = True
                    args.positional.append(self.element_of(value))
            elif arg.star == "**":
                if isinstance(value, Proxy):
                    self.report(ProxyIterated(arg, "double-star"))
                args.unknown = True
                if isinstance(value, Mapping):
                    args.keywords[f"**{len(args.keywords)}"] = value.item
                elif not isinstance(value, Proxy):
                    args.keywords[f"**{len(args.keywords)}"] = self.element_of(value)
            elif arg.keyword is not None:
                args.keywords[arg.keyword.value] = value
            else:
                args.positional.append(value)
        return args

    def e_Call(self, node: cst.Call) -> Value:
        func = node.func
        # `super().method(...)`
        if (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Call)
                and isinstance(func.value.func, cst.Name) and func.value.func.value == "super"
                and not self.is_local("super")):
            return self.super_call(node, func.attr.value, self.arguments(node))
        qualified = self.global_name(func) if isinstance(func, (cst.Name, cst.Attribute)) else None
        if qualified is not None and not (isinstance(func, cst.Name) and self.is_local(func.value)):
            return self.qualified_call(node, qualified, func)
        if isinstance(func, cst.Attribute):
            base = func.value
            if isinstance(base, cst.Name) and base.value == self.self_name and not self.is_rebound(base.value):
                return self.self_call(node, func.attr.value)
            receiver = self.ev(base)
            return self.method_call(node, receiver, func.attr.value, self.arguments(node), base)
        callee = self.ev(func)
        return self.call_value(node, callee, self.arguments(node))

    def call_value(self, node: cst.Call, callee: Value, args: Arguments) -> Value:
        if isinstance(callee, Proxy):
            return PROXY
        if isinstance(callee, Closure):
            return self.closure_call(callee, args)
        if isinstance(callee, Module):
            return self.module_call(node, callee, args)
        if isinstance(callee, TypeValue):
            return self.construct(node, callee.name, args)
        if isinstance(callee, Unknown):
            return Unknown(callee.maybe_proxy or args.may_hold_proxy())
        return Unknown(args.may_hold_proxy())

    def closure_call(self, closure: Closure, args: Arguments) -> Value:
        found = self.model.closures.get(closure.key)
        if found is None:
            return Unknown(args.may_hold_proxy())
        node, where = found
        if isinstance(node, cst.Lambda):
            params = node.params
            scope: dict[str, Value] = {}
            positional = [*params.posonly_params, *params.params]
            for index, param in enumerate(positional):
                if index < len(args.positional):
                    scope[param.name.value] = args.positional[index]
                elif param.name.value in args.keywords:
                    scope[param.name.value] = args.keywords[param.name.value]
                elif param.default is not None:
                    scope[param.name.value] = self.model.static_value(param.default, self.module)
                else:
                    scope[param.name.value] = UNKNOWN
            self.scopes.append(scope)
            try:
                return self.ev(node.body)
            finally:
                self.scopes.pop()
        function = self.model.nested_function(node, where)
        free = {name: self.name_value(name) for name in free_names(node, self.locals | set(self.nested_defs))}
        return self.called(partial(self.model.call, function, None, args, None, self.definite,
                                   self.context.type_checked or self.type_checks > 0, free, self.report_to))

    def self_call(self, node: cst.Call, name: str) -> Value:
        owners = [self.owner] if self.owner is not None else []
        methods = [(owner, self.project.find_method(owner, name)) for owner in owners]
        methods = [(owner, method) for owner, method in methods if method is not None]
        args = self.arguments(node)
        if methods:
            results = []
            for owner, method in methods:
                bound = self.name_value(self.self_name) if method.bound_first_param == "instance" else (
                    TypeValue(owner.qualname) if method.bound_first_param == "class" else None)
                results.append(self.project_call(node, method, owner, args, bound))
            return join_all(results)
        if owners and self.project.is_module_class(self.owner) and external_callable(f"torch.nn.Module.{name}"):
            return self.method_call(node, Module(frozenset(owners)), name, args, node.func)  # `self.to(x.device)`
        value = self.own_attribute(node.func, name)
        return self.call_value(node, value, args)

    def super_call(self, node: cst.Call, name: str, args: Arguments) -> Value:
        cls = self.function.cls
        owner = self.owner
        if cls is None or owner is None:
            return Unknown(args.may_hold_proxy())
        order = self.project.mro(owner)
        after = False
        for current in order:
            if after and name in current.methods:
                method = current.methods[name]
                bound = Module(frozenset([owner])) if method.bound_first_param == "instance" else None
                return self.project_call(node, method, owner, args, bound)
            if current is cls:
                after = True
        if name == "forward":
            # a torch.nn class's forward (`class MyConv(nn.Conv2d)`): recorded like a leaf's, unless it fails
            found = self.torch_forward_call(node, owner, args)
            if found is not None:
                return found
            return PROXY if args.holds_proxy() else Unknown(args.may_hold_proxy())
        return Unknown(args.may_hold_proxy())

    def torch_forward_call(self, node: cst.Call, cls: ClassInfo, args: Arguments) -> Value | None:
        """The forward a project module class inherits from torch.nn, run as traced code (the class is not a leaf),
        when `torch_checks.toml` says it fails on a Proxy input and one is given (None otherwise); the method it
        calls first with the input (`_check_input_dim`) is the project's when the class overrides it."""
        entry = torch_forward(self.project, cls)
        if entry is None or not args.holds_proxy():
            return None
        hook = torch_forward_override(self.project, cls)
        if hook is not None:
            first = args.positional[:1] or list(args.keywords.values())[:1]
            self.project_call(node, hook, cls, Arguments(first), Module(frozenset([cls])))
            if self.halted:
                return OPAQUE
            if entry.fails == "hook":
                return PROXY
        self.report(ProxyAsBool(node, "torch-forward"))
        return OPAQUE

    def method_call(self, node: cst.Call, receiver: Value, name: str, args: Arguments,
                    base: cst.BaseExpression) -> Value:
        if isinstance(receiver, Proxy):
            if self.recorded(node, args) is OPAQUE:
                return OPAQUE
            return Proxy("size" if name == "size" and not args.positional else "value")
        if isinstance(receiver, Module):
            if name in ("forward", "__call__"):
                return self.module_call(node, receiver, args)
            results = []
            with self.alternatives() as either:
                for cls in receiver.classes:
                    if isinstance(cls, ClassInfo):
                        method = self.project.find_method(cls, name)
                        if method is not None:
                            results.append(either(self.project_call(node, method, cls, args, Module(frozenset([cls])))))
            if results:
                return join_all(results)
            inherited = external_callable(f"torch.nn.Module.{name}")
            if inherited is not None and inherited.kind == "module-method" and (receiver.classes or receiver.container):
                # a module of known classes (an item of a module of unknown class may be a tensor: a BufferDict's)
                found = self.external_call(node, inherited, args, "module-method")
                return OPAQUE if found is OPAQUE else receiver  # these return the module itself
            if receiver.container and name in ("values", "children", "modules"):
                return Seq("list", None, receiver.element())
            if receiver.container and name == "items":
                return Seq("list", None, Seq("tuple", (Concrete("str"), receiver.element()), UNKNOWN))
            if name in ("parameters", "buffers"):
                return Seq("generator", None, PROXY if name == "parameters" else Concrete("tensor"))
            return Unknown(args.may_hold_proxy())
        if isinstance(receiver, Seq):
            return self.sequence_method(receiver, name, args, base)
        if isinstance(receiver, Mapping):
            if name == "get":
                default = args.positional[1] if len(args.positional) > 1 else NONE
                return join(receiver.item, default)
            if name == "items":
                return Seq("list", None, Seq("tuple", (CONCRETE, receiver.item), join(CONCRETE, receiver.item)))
            if name == "values":
                return Seq("list", None, receiver.item)
            if name == "keys":
                return Seq("list", None, Unknown(receiver.proxy_key))
            if name in ("pop", "setdefault"):
                return receiver.item
            if name == "update":
                self._rebind(base, Mapping(join_all([receiver.item, *(self.element_of(v) for v in args.all())]),
                                           receiver.proxy_key))
            return OPAQUE
        if isinstance(receiver, Concrete) and receiver.kind == "tensor":
            if args.holds_proxy():
                return PROXY  # a tensor method given a Proxy dispatches to __torch_function__
            if args.may_hold_proxy():
                return UNKNOWN
            if name in ("size",) and not args.positional:
                return Seq("tuple", None, Concrete("int"))
            if name in ("size", "dim", "numel", "nelement", "ndimension"):
                return Concrete("int")
            if name in ("item", "tolist"):
                return CONCRETE
            return Concrete("tensor")
        if isinstance(receiver, Const) and isinstance(receiver.value, str):
            return Concrete("str")
        if isinstance(receiver, TypeValue):
            cls = self.project.resolve_class(receiver.name)
            if cls is not None:
                method = self.project.find_method(cls, name)
                if method is not None:
                    bound = receiver if method.bound_first_param == "class" else None
                    return self.project_call(node, method, cls, args, bound)
            return Unknown(args.may_hold_proxy())
        if isinstance(receiver, Unknown):
            if receiver.maybe_proxy and name not in _CONTAINER_METHODS:
                return PROXY  # see `attribute`
            return Unknown(receiver.maybe_proxy or args.may_hold_proxy())
        return Unknown(args.may_hold_proxy())

    def sequence_method(self, receiver: Seq, name: str, args: Arguments, base: cst.BaseExpression) -> Value:
        if name in ("append", "insert", "extend") and args.positional:
            added = args.positional[-1]
            item = self.element_of(added) if name == "extend" else added
            if receiver.items is not None and name == "append" and self.frame is not None and self.frame.level == 0:
                self._rebind(base, sequence(receiver.kind, (*receiver.items, item)))
            else:
                self._rebind(base, Seq(receiver.kind, None, join(receiver.item, item)))
            return NONE
        if name == "pop":
            return receiver.item
        if name in ("index", "count"):
            if any(isinstance(v, Proxy) for v in args.positional) and receiver.items != ():
                pass  # compared with `==`: a bool of a Proxy, unless the list is empty
            return Concrete("int")
        if name == "copy":
            return receiver
        return OPAQUE

    def _rebind(self, base: cst.BaseExpression, value: Value) -> None:
        if isinstance(base, cst.Name) and self.frame is not None and not self.quiet:
            for scope in reversed(self.scopes):
                if base.value in scope:
                    scope[base.value] = value
                    return
            if base.value in self.frame.values:
                self.frame.values[base.value] = value

    def recorded(self, node: cst.Call, args: Arguments) -> Value:
        """A call symbolic_trace records as a node: its arguments become graph arguments (`create_arg`), where a
        dict key must not be a node."""
        if any(isinstance(value, Mapping) and value.proxy_key for value in args.all()):
            self.report(ProxyDictKey(node))
            return OPAQUE
        return PROXY

    def module_call(self, node: cst.Call, module: Module, args: Arguments) -> Value:
        if module.local:
            self.report(ModuleBuiltInTrace(node))
            return OPAQUE
        if module.container == "Sequential":
            return self.sequential_call(node, module, args)
        if module.container:
            return Unknown(args.may_hold_proxy())
        if not module.classes:
            return Unknown(args.may_hold_proxy())
        results = []
        with self.alternatives() as either:
            for cls in module.classes:
                external = external_callable(cls) if isinstance(cls, str) else None
                if external is not None:
                    results.append(either(self.external_call(node, external, args)))  # as the table says
                elif isinstance(cls, str) or self.model.leaves.leaf(cls):
                    results.append(either(self.recorded(node, args)))  # a leaf: one call_module node
                else:
                    forward = self.project.find_method(cls, "forward")
                    if forward is None:
                        found = self.torch_forward_call(node, cls, args)
                        results.append(either(Unknown(True) if found is None else found))
                    else:
                        results.append(either(self.project_call(node, forward, cls, args, Module(frozenset([cls])))))
        return join_all(results)

    def sequential_call(self, node: cst.Call, module: Module, args: Arguments) -> Value:
        """`nn.Sequential` is traced into: each step is called with what the one before returned."""
        if module.order is None:
            for cls in module.classes:  # the steps' bodies run, on values not known here
                self.module_call(node, Module(frozenset([cls])), Arguments([UNKNOWN]))
            return Unknown(True)
        value: Value | None = None
        for step in module.order:
            step_args = args if value is None else Arguments([value])
            classes = step if isinstance(step, frozenset) else frozenset([step])  # `A() if c else B()`: either
            value = self.module_call(node, Module(classes), step_args)
        return value if value is not None else (args.positional[0] if args.positional else UNKNOWN)

    def construct(self, node: cst.Call, qualified: str, args: Arguments) -> Value:
        """A class called: a module built in traced code, or another object."""
        if qualified.startswith("torch.nn.") and is_torch_module_base(qualified):
            container = CONTAINER_KINDS.get(qualified)
            return Module(frozenset() if container else frozenset([qualified]), container, local=True)
        cls = self.project.resolve_class(qualified)
        if cls is not None and self.project.is_module_class(cls):
            return Module(frozenset([cls]), None, local=True)
        if cls is not None and args.holds_proxy():
            # another project class built from traced values: its `__init__` runs as traced code
            init = self.project.find_method(cls, "__init__")
            if init is not None:
                self.project_call(node, init, cls, args, OPAQUE)
        if _external_module(qualified) and not external_callable(qualified).built_to_trace(node):
            return Module(frozenset([qualified]), None, local=True)
        head, _, last = qualified.rpartition(".")
        if head == "builtins" and last in _BUILTIN_TYPES:
            return self.builtin(node, last, args)
        return Unknown(args.may_hold_proxy())

    def project_call(self, node: cst.Call, function: FunctionInfo, owner: ClassInfo | None, args: Arguments,
                     bound: Value | None) -> Value:
        if "torch.jit.script" in function.decorators:
            if args.holds_proxy():
                self.report(ScriptFunctionCalled(node))
            return OPAQUE
        leaves = self.model.leaves
        if leaves.wrapped_call(function, node, self.module):
            if args.holds_proxy():
                return self.recorded(node, args)  # one call_function node
            if args.may_hold_proxy():
                return UNKNOWN
        if function.cls is not None and self.project.is_module_class(function.cls) and function.name == "forward" \
                and owner is not None and leaves.leaf(owner):
            return PROXY
        return self.called(partial(self.model.call, function, owner if owner is not None else function.cls, args,
                                   bound, self.definite, self.context.type_checked or self.type_checks > 0))

    # -- calls of module-level names --------------------------------------------------------------------------
    def qualified_call(self, node: cst.Call, qualified: str, func: cst.BaseExpression) -> Value:
        if qualified in TRACE_TIME_VALUES:
            value = TRACE_TIME_VALUES[qualified]
            self.arguments(node)
            return Const(value) if value is not None else NONE
        head, _, last = qualified.rpartition(".")
        if head == "builtins":
            return self.builtin(node, last, self.arguments(node), func)
        target = self.project.resolve(qualified)
        if isinstance(target, FunctionInfo):
            return self.project_call(node, target, target.cls, self.arguments(node), None)
        if isinstance(target, ClassInfo):
            return self.construct(node, target.qualname, self.arguments(node))
        if target is None and "." in qualified:
            # `Cls.method(...)` of a project class
            cls = self.project.resolve_class(head)
            if cls is not None:
                method = self.project.find_method(cls, last) or autograd_forward(self.project, cls, last)
                if method is not None:
                    bound = TypeValue(cls.qualname) if method.bound_first_param == "class" else None
                    args = self.arguments(node)  # `Function.apply(...)` runs `forward(ctx, ...)`:
                    args = replace(args, positional=[OPAQUE, *args.positional]) if method.name != last else args
                    return self.project_call(node, method, cls, args, bound)
        if target is None and "." in qualified:
            # a name outside the project that a project module re-exports (`base_distributions.Normal`, where
            # the package did `import torch.distributions as base_distributions`)
            outside = outside_name(self.project, qualified)
            if outside != qualified and self.project.resolve(outside) is None:
                qualified = outside
        if qualified == "torch._assert":
            return self.torch_assert(node)
        args = self.arguments(node)
        external = external_callable(qualified) if target is None else None
        if external is not None:
            if external.kind == "module":
                return self.construct(node, qualified, args)
            return self.external_call(node, external, args)
        if qualified.startswith(("torch.", "torchvision.ops.")):
            return self.torch_call(node, qualified, args)
        if qualified.startswith("math."):
            if isinstance(func, cst.Name) and args.holds_proxy() and not self.model.autowrapped_globals(self.module):
                # `from math import ceil`: the name in this module's globals is the real function
                self.report(BuiltinOnProxy(node, "math"))
                return OPAQUE
            return self.math_call(node, qualified, args)
        if qualified.startswith("numpy."):
            if args.holds_proxy():
                self.report(NumpyOnProxy(node, qualified))
                return OPAQUE
            return Unknown(args.may_hold_proxy()) if args.may_hold_proxy() else CONCRETE
        if qualified in ("typing.cast",) and len(args.positional) == 2:
            return args.positional[1]
        if self.model.leaves.wraps_builtin(self.module, last) and args.holds_proxy():
            return PROXY
        return Unknown(args.may_hold_proxy())

    def external_call(self, node: cst.Call, external: ExternalCallable, args: Arguments,
                      construct: str = "validation") -> Value:
        """A library callable the table of external callables knows, called with these arguments."""
        if external.proxy == "raises":
            if any(holds_proxy(value) for value in external.triggering(args.positional, args.keywords)):
                if external.exception == "TraceError" and external.library == "torch":  # torch's own `if`
                    self.report(ProxyAsBool(node, construct))
                else:
                    self.report(ExternalRejects(node, external.name, external.exception or "Exception",
                                                external.says or ""))
                return OPAQUE
            return Unknown(args.may_hold_proxy())
        if external.proxy == "traces" and args.holds_proxy():
            return PROXY
        return Unknown(args.may_hold_proxy())

    def math_call(self, node: cst.Call, qualified: str, args: Arguments) -> Value:
        if args.holds_proxy():
            return PROXY  # `math` is autowrapped: recorded as call_function
        values = args.positional
        if values and all(isinstance(v, Const) and isinstance(v.value, (int, float)) for v in values):
            function = getattr(math, qualified[5:], None)
            if callable(function):
                try:
                    result = function(*(v.value for v in values))
                    if isinstance(result, (int, float)) and not (isinstance(result, float) and math.isnan(result)):
                        return Const(result)
                except Exception:  # noqa: BLE001
                    return OPAQUE
        return Unknown(True) if args.may_hold_proxy() else Concrete("float")

    def torch_assert(self, node: cst.Call) -> Value:
        before = self.type_checks + self.helper_checks
        condition = self.ev(node.args[0].value) if node.args else UNKNOWN
        for arg in node.args[1:]:
            self.ev(arg.value)
        if isinstance(condition, Const) and not condition.value and self.type_checks + self.helper_checks > before:
            self._type_check_raises(node, "AssertionError", "torch._assert")
        return NONE

    def torch_call(self, node: cst.Call, qualified: str, args: Arguments) -> Value:
        first = args.positional[0] if args.positional else None
        given = next((value for value in args.all() if _root_argument(value)), None)
        if given is not None and not qualified.startswith(("torch.jit.", "torch.fx.", "torch._dynamo.")):
            self.report_static_forward(node, given)  # "argument 'input' (position 1) must be Tensor, not <Module>"
            return OPAQUE
        if qualified in ("torch.is_tensor",):
            if isinstance(first, Proxy):
                self.type_checks += 1
                self.last_check = node
                return Const(False)
            if isinstance(first, Concrete) and first.kind == "tensor":
                return Const(True)
            return Concrete("bool")
        if qualified in ("torch.jit.annotate",) and len(args.positional) == 2:
            return args.positional[1]
        if qualified.startswith(("torch.jit.", "torch.fx.", "torch.compiler.", "torch._dynamo.")):
            return Unknown(args.may_hold_proxy()) if args.may_hold_proxy() else CONCRETE
        if qualified == "torch.finfo":
            if isinstance(first, Proxy):
                self.report(FinfoOfProxy(node, qualified))
                return OPAQUE
            return CONCRETE
        if qualified == "torch.iinfo":
            return CONCRETE
        if qualified == "torch.from_numpy":
            if isinstance(first, Proxy):
                self.report(NumpyOnProxy(node, qualified))
                return OPAQUE
            return Concrete("tensor")
        if qualified in ("torch.tensor", "torch.as_tensor", "torch.Tensor", "torch.LongTensor", "torch.FloatTensor"):
            if qualified in ("torch.tensor", "torch.as_tensor") and any(
                    holds_proxy(value) for value in args.keywords.values()):
                # `dtype=x.dtype`, `device=x.device`: the argument parser finds the Proxy and dispatches the call
                # to it (`__torch_function__`) before the data is read, Proxies in it too
                return self.recorded(node, args)
            if isinstance(first, Proxy):
                self.report(BuiltinOnProxy(node, "torch.tensor"))
                return OPAQUE
            if first is not None and holds_proxy(first):
                self.report(BuiltinOnProxy(node, "torch.tensor-list"))
                return OPAQUE
            if any(holds_proxy(value) for value in args.keywords.values()):
                return self.recorded(node, args)  # `dtype=x.dtype`: a Proxy among the arguments dispatches to it
            return Concrete("tensor") if not (first is not None and may_hold_proxy(first)) else UNKNOWN
        if qualified == "torch.Size":
            if first is not None and (isinstance(first, Proxy) or holds_proxy(first)):
                self.report(BuiltinOnProxy(node, "torch.Size"))
                return OPAQUE
            return Seq("tuple", None, Concrete("int"))
        if qualified in VARARGS_FACTORIES and isinstance(first, Proxy) and len(args.positional) > 1:
            self.report(VarargsFactory(node, qualified))
            return OPAQUE
        if qualified.startswith("torch.nn.") and is_torch_module_base(qualified):
            return self.construct(node, qualified, args)
        if qualified in ("torch.Size",):
            return Seq("tuple", None, Concrete("int"))
        if qualified in ("torch.device",):
            return Concrete("device")
        if qualified in ("torch.no_grad", "torch.enable_grad", "torch.autocast", "torch.inference_mode"):
            return CONCRETE
        if args.holds_proxy():
            return self.recorded(node, args)
        if args.may_hold_proxy():
            return UNKNOWN
        if qualified.startswith("torchvision."):
            return CONCRETE
        return Concrete("tensor")

    def apply(self, node: cst.Call, function: Value, args: Arguments) -> Value | None:
        """What a builtin that calls the function it is given (`map`, `filter`) gets from one call of it: a lambda,
        a nested function, a module, or a project function named at module level (None: not known)."""
        if isinstance(function, (Closure, Module)):
            return self.call_value(node, function, args)
        given = node.args[0].value
        named = None if isinstance(given, cst.Name) and self.is_local(given.value) else applied_function(
            self.project, node, self.function)
        return self.project_call(node, named, None, args, None) if named is not None else None

    def builtin(self, node: cst.Call, name: str, args: Arguments, func: cst.BaseExpression | None = None) -> Value:
        first = args.positional[0] if args.positional else None
        if self.model.leaves.wraps_builtin(self.module, name) and args.holds_proxy():
            return PROXY  # `torch.fx.wrap('len')` at module level: recorded
        if name == "len":
            if isinstance(first, Proxy):
                self.report(BuiltinOnProxy(node, "len"))
                return OPAQUE
            if isinstance(first, Seq) and first.items is not None:
                return Const(len(first.items))
            if isinstance(first, Const) and isinstance(first.value, (tuple, str)):
                return Const(len(first.value))
            return Unknown(False) if isinstance(first, Unknown) else Concrete("int")
        if name in ("int", "float", "complex", "bool"):
            if isinstance(first, Proxy):
                if name == "bool":
                    self.report(ProxyAsBool(node, "bool()"))
                else:
                    self.report(BuiltinOnProxy(node, name))
                return OPAQUE
            if isinstance(first, Const) and name != "complex":
                try:
                    return Const({"int": int, "float": float, "bool": bool}[name](first.value))
                except Exception:  # noqa: BLE001
                    return OPAQUE
            if name == "bool" and first is not None:
                decided = self.truth_of(first, node, "bool()")
                return Const(decided) if decided is not None else Concrete("bool")
            return Concrete(name) if first is None or not isinstance(first, Unknown) else Unknown(False)
        if name in _INDEXING:
            if any(isinstance(v, Proxy) for v in args.positional):
                self.report(BuiltinOnProxy(node, "range" if name == "range" else "index"))
                return OPAQUE
            if name == "range":
                values = args.positional
                if values and all(isinstance(v, Const) and isinstance(v.value, int) for v in values):
                    try:
                        numbers = range(*(v.value for v in values))
                    except Exception:  # noqa: BLE001
                        return OPAQUE
                    if len(numbers) <= 16:
                        return sequence("list", (Const(n) for n in numbers))
                return Seq("list", None, Concrete("int"))
            return Concrete("str")
        if name in ("round", "divmod"):
            if any(isinstance(v, Proxy) for v in args.positional[: 1 if name == "round" else 2]):
                self.report(BuiltinOnProxy(node, name))
                return OPAQUE
            return Concrete("int") if name == "round" else Seq("tuple", None, CONCRETE)
        if name in ("max", "min"):
            if len(args.positional) == 1 and not args.unknown:
                items = self.iterate(first, node, name)
                if isinstance(first, Seq) and (first.items is None or len(first.items) > 1) and \
                        (holds_proxy(first) if first.items is not None else isinstance(first.item, Proxy)):
                    self.report(BuiltinOnProxy(node, name))
                    return OPAQUE
                return items if not isinstance(first, Proxy) else OPAQUE
            if sum(1 for v in args.positional if may_hold_proxy(v)) and any(isinstance(v, Proxy) for v in args.positional) \
                    and len(args.positional) > 1:
                self.report(BuiltinOnProxy(node, name))
                return OPAQUE
            values = args.positional
            if values and all(isinstance(v, Const) for v in values):
                try:
                    return Const((max if name == "max" else min)(v.value for v in values))
                except Exception:  # noqa: BLE001
                    return OPAQUE
            return join_all(values) if values else OPAQUE
        if name in ("abs", "pow"):
            if args.holds_proxy():
                return PROXY
            return Concrete(kind_of(first) if first is not None else None)
        if name in ("sorted", "any", "all"):
            if isinstance(first, Proxy):
                self.report(ProxyIterated(node, name))
                return OPAQUE
            if isinstance(first, Seq) and (first.items is not None and any(isinstance(i, Proxy) for i in first.items)
                                           or first.items is None and isinstance(first.item, Proxy)):
                if name != "sorted" or first.items is None or len(first.items) > 1:
                    self.report(BuiltinOnProxy(node, name))
                    return OPAQUE
            return Concrete("bool") if name != "sorted" else Seq("list", None, self.element_of(first) if first else OPAQUE)
        if name == "sum":
            if isinstance(first, Proxy):
                self.report(ProxyIterated(node, name))
                return OPAQUE
            element = self.element_of(first) if first is not None else OPAQUE
            if isinstance(element, Proxy) or (isinstance(first, Seq) and holds_proxy(first)):
                return PROXY
            return Unknown(True) if may_hold_proxy(element) else Concrete(kind_of(element))
        if name in ("zip",):
            for value, arg in zip(args.positional, node.args):
                if isinstance(value, Proxy):
                    self.report(ProxyIterated(node, name))
                    return OPAQUE
            if args.unknown:
                return Seq("list", None, Seq("tuple", None, UNKNOWN))
            return Seq("list", None, sequence("tuple", (self.element_of(v) for v in args.positional)))
        if name == "enumerate":
            if isinstance(first, Proxy):
                self.report(ProxyIterated(node, name))
                return OPAQUE
            element = self.element_of(first) if first is not None else OPAQUE
            return Seq("list", None, Seq("tuple", (Concrete("int"), element), join(Concrete("int"), element)))
        if name == "filter" and len(args.positional) == 2 and not args.unknown and not args.keywords:
            # filter(f, items) iterates items and makes each `f(item)` (each item, given None) a bool
            function, items = args.positional
            if isinstance(items, Proxy):
                self.report(ProxyIterated(node, name))
                return OPAQUE
            element = self.element_of(items)
            if function == NONE:
                self.truth_of(element, node, "filter")
            else:
                kept = self.apply(node, function, Arguments([element]))
                if kept is not None:
                    self.truth_of(kept, node, "filter")
            return Seq("list", None, element)
        if name in _ITERATING:
            if isinstance(first, Proxy):
                self.report(ProxyIterated(node, name))
                return OPAQUE
            if first is None:
                return Seq(name, (), EMPTY) if name in ("list", "tuple") else (
                    Mapping(EMPTY) if name == "dict" else CONCRETE)
            if name in ("list", "tuple"):
                if isinstance(first, Seq):
                    return Seq(name, first.items, first.item)
                if isinstance(first, Const) and isinstance(first.value, tuple):
                    return sequence(name, (Const(v) for v in first.value))
                return Seq(name, None, self.element_of(first))
            if name == "dict":
                return Mapping(self.element_of(first) if not isinstance(first, Mapping) else first.item)
            if name in ("reversed", "iter", "filter", "map"):
                if name == "map" and len(args.positional) > 1:
                    for value in args.positional[1:]:
                        if isinstance(value, Proxy):
                            self.report(ProxyIterated(node, name))
                            return OPAQUE
                    if not args.unknown and not args.keywords:
                        # the function is called with an item of each iterable, as the caller's `for` would
                        items = Arguments([self.element_of(value) for value in args.positional[1:]])
                        returned = self.apply(node, first, items)
                        if returned is not None:
                            return Seq("list", None, returned)
                    return Seq("list", None, Unknown(args.may_hold_proxy()))
                return Seq("list", None, self.element_of(first))
            return Concrete(name)
        if name == "isinstance":
            return self.isinstance_test(node, first)
        if name == "issubclass":
            return Concrete("bool")
        if name == "type" and len(args.positional) == 1:
            if isinstance(first, Proxy):
                self.type_checks += 1
                self.last_check = node
                return TypeValue(PROXY_TYPE)
            kind = kind_of(first) if first is not None else None
            if isinstance(first, Seq) and first.kind in ("list", "tuple"):
                return TypeValue(f"builtins.{first.kind}")
            if kind in ("int", "float", "str", "bool"):
                return TypeValue(f"builtins.{kind}")
            if first == NONE:
                return TypeValue("builtins.NoneType")
            if kind == "tensor":
                return TypeValue("torch.Tensor")
            return CONCRETE
        if name in ("hasattr", "callable"):
            if isinstance(first, Proxy):
                self.type_checks += 1
                self.last_check = node
                return Const(True)  # a Proxy has every attribute (`__getattr__`) and is callable
            return Concrete("bool")
        if name == "getattr":
            if isinstance(first, Proxy):
                return PROXY
            attribute = args.positional[1] if len(args.positional) > 1 else None
            if not (isinstance(attribute, Const) and isinstance(attribute.value, str)) or first is None:
                return UNKNOWN
            subject = node.args[0].value
            if isinstance(subject, cst.Name) and subject.value == self.self_name and not self.is_rebound(subject.value):
                value = self.self_attribute(attribute.value)
            else:
                value = self.attribute(first, attribute.value)
            if len(args.positional) > 2 and value == CONCRETE:
                return join(value, args.positional[2])
            return value
        if name in ("str", "repr", "format", "print", "id", "hash", "setattr", "delattr", "vars", "dir",
                    "ord", "ascii", "object", "super", "open"):
            return Concrete("str") if name in ("str", "repr", "format") else (Concrete("int") if name in (
                "id", "hash", "ord") else CONCRETE)
        if name == "next":
            if isinstance(first, Proxy):
                self.report(ProxyIterated(node, name))
                return OPAQUE
            return self.element_of(first) if first is not None else UNKNOWN
        if name == "slice":
            return Concrete("slice")
        return Unknown(args.may_hold_proxy())

    def isinstance_test(self, node: cst.Call, value: Value | None) -> Value:
        if len(node.args) < 2 or value is None:
            return Concrete("bool")
        classes_node = node.args[1].value
        elements = [e.value for e in classes_node.elements] if isinstance(classes_node, cst.Tuple) else [classes_node]
        names = []
        for element in elements:
            qualified = self.global_name(element) if isinstance(element, (cst.Name, cst.Attribute)) else None
            if qualified is None:
                return Concrete("bool")
            names.append(qualified)
        if isinstance(value, Proxy):
            outcome = any(name in _PROXY_CLASSES or name.rpartition(".")[2] in _PROXY_ABCS and name.startswith(
                ("collections.abc.", "typing.")) for name in names)
            self.type_checks += 1
            self.last_check = node
            if self.trusts_type_checks and not outcome:
                self.report(IsinstanceOfProxy(node, outcome))
            return Const(outcome)
        return self._isinstance_of_concrete(value, names)

    def _isinstance_of_concrete(self, value: Value, names: list[str]) -> Value:
        short = {name.rpartition(".")[2] for name in names if name.startswith("builtins.")}
        if "object" in short:
            return Const(True)
        if isinstance(value, Const):
            types = tuple(_BUILTIN_TYPES[name] for name in short if name in _BUILTIN_TYPES)
            if len(types) == len(names):
                return Const(isinstance(value.value, types))
            return Concrete("bool") if not types else (Const(True) if isinstance(value.value, types) else Concrete("bool"))
        if isinstance(value, Seq) and value.kind in ("list", "tuple"):
            if value.kind in short:
                return Const(True)
            if all(name.startswith(("builtins.", "torch.")) for name in names):
                return Const(False)
            return Concrete("bool")
        if isinstance(value, Module):
            if any(name == "torch.nn.Module" for name in names):
                return Const(True)
            if all(name.startswith(("builtins.", "torch.Tensor")) for name in names):
                return Const(False)
            return Concrete("bool")
        if isinstance(value, Concrete) and value.kind == "tensor":
            if "torch.Tensor" in names:
                return Const(True)
            if all(name.startswith("builtins.") for name in names):
                return Const(False)
        if isinstance(value, Concrete) and value.kind in ("int", "float", "str", "bool"):
            if value.kind in short or (value.kind == "bool" and "int" in short):
                return Const(True)
            if all(name.startswith(("builtins.", "torch.")) for name in names):
                return Const(False)
        return Concrete("bool")


# -- helpers --------------------------------------------------------------------------------------------------
_SELF = "<self>."  # in a frame's values: `self.<name>` as this function last assigned it
_DEFINITE = "<definite>"  # in a frame's values: the block depth down to which the path is certain (loop bodies)


def _external_module(qualified: str) -> bool:
    """Whether a qualified name is a module class of an installed library the table of external callables knows."""
    external = external_callable(qualified)
    return external is not None and external.kind == "module"


def _parameters(function: FunctionInfo):
    params = function.node.params
    positional = [*params.posonly_params, *params.params]
    if function.bound_first_param is not None and positional:
        positional = positional[1:]
    star = params.star_arg if isinstance(params.star_arg, cst.Param) else None
    return positional, list(params.kwonly_params), star, params.star_kwarg


def _root_argument(value: Value) -> bool:
    """Whether a value is the traced root module given to a static forward as its first parameter."""
    return isinstance(value, Module) and value.root_argument


def _parameter_names(function: FunctionInfo, with_self: bool = False) -> list[str]:
    positional, keyword_only, star, star_kwarg = _parameters(function)
    names = [p.name.value for p in (*positional, *keyword_only)]
    names += [p.name.value for p in (star, star_kwarg) if p is not None]
    if with_self and function.bound_first_param is not None:
        first = first_param_name(function.node)
        if first is not None:
            names.insert(0, first)
    return names


def tracing_model(policy: "TracePolicy") -> TracingModel:
    """The run's tracing model, built once for the capture map (`TracePolicy.model`): a function's parameters take
    their values from its callers, anywhere in the run."""
    if policy.model is None:
        policy.model = TracingModel(policy)
    return policy.model


class TraceResults(Fact):
    """What symbolic_trace does in a traced function (read where the walk is at its `def`): the results of the run's
    tracing model (`tracing_model`) for that function, over every context it is called in."""

    @classmethod
    def compute(cls, ctx, node: cst.FunctionDef) -> list[TraceResult]:
        entry: CapturedFunction | None = ctx.function
        if entry is None or entry.info.node is not node or not entry.body_captured:
            return []
        return tracing_model(ctx.captured.policy).results_of(node)

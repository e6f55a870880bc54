"""Proxy taint: which values are `torch.fx.Proxy` objects while `symbolic_trace` runs a traced function, and where
code uses one as a plain Python value (the FX2xx sinks). A domain of the shared flow walker (`jitlint.facts.flow`).

Values (strings, None for "concrete or unknown"):
- `PROXY`: certainly a Proxy: a traced forward's placeholder parameters, `self.<nn.Parameter>`, anything derived
  from a Proxy (attributes such as `.shape`/`.ndim`/`.dtype`/`.device`, method calls, indexing, arithmetic and
  comparisons), `torch.*`, `math.*` and wrapped functions applied to one, leaf submodule outputs;
- `MAYBE`: possibly a Proxy, possibly a container of them (what a traced project function or non-leaf
  submodule returns, the element of a container holding Proxies, a value that is a Proxy on one branch only);
  sinks never fire on it, but what is derived from it by attribute or method is a Proxy (tuples have no `.shape`);
- `SEQ`, `SEQ_P`, `DICT`: a concrete list or tuple (without / with Proxy elements), a concrete dict;
- `MODULE_LOCAL`: a module instance built in traced code.

Seeds and reach: a root forward's parameters are all placeholders (flags with defaults too); the
parameters of other traced functions take the taint of what their call sites pass (a parameter a call omits keeps
its concrete default), so taint crosses function boundaries and files. Buffers, Python attributes and literals
stay concrete.

Not modelled: `try` bodies (the walker does not enter them), loops to a fixed point, what a traced function
returns (MAYBE), object attributes other than `self.<parameter>`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import libcst as cst

from jitlint.facts.torch_api import PARAMETER_CLASSES, SCALAR_ANNOTATIONS, SEQUENCE_ANNOTATIONS, TENSOR_CLASSES
from jitlint.facts.flow import FlowDomain, FlowWalker, Frame, Reads
from jitlint.names import first_param_name
from jitlint.project import CallResult, ClassInfo, FunctionInfo, is_torch_module_base
from jitlint.walk import walk

if TYPE_CHECKING:
    from jitlint.capture import CapturedFunction, CaptureMap
    from jitlint.targets.fx.trace import TracePolicy

PROXY, MAYBE, SEQ, SEQ_P, DICT, MODULE_LOCAL = "proxy", "maybe", "seq", "seq*", "dict", "module-local"
_POSSIBLE = (PROXY, MAYBE)

# Sink kinds, one per rule (`jitlint.targets.fx.rules.trace` maps them to rule classes).
BOOL, BUILTIN, ITERATE, INDEX, ITEM_ASSIGN, FACTORY, FINFO, MODULE_IN_FORWARD, SCRIPT_CALL, NUMPY = (
    "bool", "builtin", "iterate", "index", "item-assign", "factory", "finfo", "module-in-forward", "script-call",
    "numpy",
)
ISINSTANCE, NONE_CHECK = "isinstance", "none-check"

# Builtins whose result is a Proxy when an argument is (recorded through magic methods).
_PROXY_BUILTINS = frozenset({"builtins.getattr", "builtins.abs", "builtins.pow"})
# Builtins that iterate their (first) argument.
_ITERATING_BUILTINS = frozenset(
    {"builtins.list", "builtins.tuple", "builtins.set", "builtins.frozenset", "builtins.sorted", "builtins.enumerate",
     "builtins.zip", "builtins.sum", "builtins.any", "builtins.all", "builtins.dict", "builtins.reversed",
     "builtins.map", "builtins.filter"}
)
_BUILTIN_MESSAGES = {
    "builtins.len": "`len()` of a Proxy: symbolic_trace raises \"'len' is not supported in symbolic tracing by "
                    "default\"; use `x.size(0)` / `x.shape[0]`, or `torch.fx.wrap('len')` at module level",
    "builtins.int": "`int()` of a Proxy: a traced value has no Python int while tracing; keep it a tensor "
                    "expression, or wrap the function with `torch.fx.wrap`",
    "builtins.float": "`float()` of a Proxy: a traced value has no Python float while tracing; keep it a tensor "
                      "expression, or wrap the function with `torch.fx.wrap`",
    "builtins.range": "`range()` of a Proxy: a traced value is not an integer while tracing; loop over a concrete "
                      "count, or wrap the function with `torch.fx.wrap`",
    "builtins.round": "`round()` of a Proxy: Proxy defines no `__round__`; use `torch.round`",
    "builtins.divmod": "`divmod()` of a Proxy is not supported; use `//` and `%`",
    "builtins.max": "builtin `max()` compares a Proxy as a Python bool (symbolic_trace raises on control flow); use "
                    "`torch.maximum`/`torch.clamp`, or wrap the function with `torch.fx.wrap`",
    "builtins.min": "builtin `min()` compares a Proxy as a Python bool (symbolic_trace raises on control flow); use "
                    "`torch.minimum`/`torch.clamp`, or wrap the function with `torch.fx.wrap`",
}
# Methods of lists, tuples and dicts: on a MAYBE value (a Proxy, or a container of them) they say nothing.
_CONTAINER_METHODS = frozenset({"keys", "values", "items", "get", "append", "extend", "insert", "pop", "index", "count",
                                "copy", "update", "setdefault", "popitem", "clear", "remove", "reverse", "sort"})
VARARGS_FACTORIES = frozenset({"torch.zeros", "torch.ones", "torch.empty", "torch.rand", "torch.randn"})


@dataclass
class Sink:
    kind: str
    node: cst.CSTNode
    message: str


@dataclass
class Analysis:
    """The taint analysis of one traced function: the sinks it reaches and the taint of what each call passes."""

    sinks: list[Sink] = field(default_factory=list)
    # id(call) -> (taint of each positional argument, of each keyword argument, whether `*`/`**` is passed)
    call_args: dict[int, tuple[list, dict, bool]] = field(default_factory=dict)
    placeholders: frozenset[str] = frozenset()  # parameters that are a root forward's placeholders


def join(first, second):
    if first == second:
        return first
    if first in _POSSIBLE or second in _POSSIBLE:
        return MAYBE
    if {first, second} <= {SEQ, SEQ_P}:
        return SEQ_P
    return None


# -- parameters -------------------------------------------------------------------------------------------------
def _parameters(node: cst.FunctionDef, skip_first: bool) -> tuple[list[cst.Param], list[cst.Param], Any, Any]:
    params = node.params
    positional = [*params.posonly_params, *params.params]
    if skip_first and positional:
        positional = positional[1:]
    star = params.star_arg if isinstance(params.star_arg, cst.Param) else None
    return positional, list(params.kwonly_params), star, params.star_kwarg


def is_root_forward(policy: "TracePolicy", entry: "CapturedFunction") -> bool:
    """A forward of a module class that no other module class of the project uses: users trace it themselves."""
    from jitlint.targets.fx.trace import submodule_classes

    info = entry.info
    if info.name != "forward" or info.cls is None:
        return False
    owners = entry.owners or [info.cls]
    used = submodule_classes(policy.project)
    return any(policy.project.is_module_class(owner) and id(owner) not in used for owner in owners)


def parameter_taint(policy: "TracePolicy", entry: "CapturedFunction") -> tuple[dict[str, Any], frozenset[str], frozenset[str]]:
    """The taint of each parameter; the parameters that are a root forward's placeholders; and those whose taint
    is a guess (a forward whose callers are not resolved)."""
    info = entry.info
    skip_first = info.bound_first_param is not None
    positional, keyword_only, star, star_kwarg = _parameters(info.node, skip_first)
    names = [p.name.value for p in (*positional, *keyword_only)]
    extra = [p.name.value for p in (star, star_kwarg) if p is not None]
    if is_root_forward(policy, entry):
        every = {name: PROXY for name in (*names, *extra)}
        return every, frozenset(every), frozenset()
    values: dict[str, Any] = {name: None for name in (*names, *extra)}
    sites = [site for site in policy.captured.calls_to(info.node) if site.caller is not None and site.call is not None]
    analysed = False
    for site in sites:
        if policy.leaves.wrapped_call(info, site.call, site.caller.module):
            continue  # recorded as one node there: the body does not run with these arguments
        caller = policy.captured.get(site.caller.node)
        if caller is None or not caller.body_captured:
            continue
        analysis = analyse(policy, caller)
        if analysis is None:
            continue
        passed = analysis.call_args.get(id(site.call))
        if passed is None:
            continue
        analysed = True
        args, keywords, starred = passed
        # A bound call (`self.f(a)`) passes `a` to the first parameter after `self`; an unbound call of a method
        # through its class passes the instance first.
        offset = 0 if (site.bound or not skip_first) else 1
        for index, value in enumerate(args):
            slot = index - offset
            if slot < 0:
                continue
            if slot < len(positional):
                name = positional[slot].name.value
            elif star is not None:
                name = star.name.value
                value = SEQ_P if value in _POSSIBLE else SEQ
            else:
                continue
            values[name] = join(values[name], value) if values[name] is not None else value
        for keyword, value in keywords.items():
            if keyword in values:
                values[keyword] = join(values[keyword], value) if values[keyword] is not None else value
            elif star_kwarg is not None:
                values[star_kwarg.name.value] = DICT
        if starred:  # what `*args`/`**kwargs` pass is unknown: no taint is claimed for it
            continue
    guessed = set()
    if not analysed and info.name == "forward" and info.cls is not None and policy.project.is_module_class(info.cls):
        # A forward whose callers are not resolved here (a submodule in `nn.Sequential` or a ModuleList loop, a
        # model built by a builder function): the parameters without a default receive what the parent has or
        # the traced input, Proxies; those with a default keep it (as when a parent omits them).
        imports = info.module.imports
        for param in positional:
            if param.default is None:
                values[param.name.value] = _guess(param, imports)
                if values[param.name.value] == PROXY:
                    guessed.add(param.name.value)
    return values, frozenset(), frozenset(guessed)


def _guess(param: cst.Param, imports) -> Any:
    """What a forward parameter whose callers are unknown holds, by its annotation: a Proxy for a tensor or no
    annotation, a sequence of them for `List[...]`/`Tuple[...]`, a concrete value for a scalar type, and MAYBE for
    any other annotation (an alias such as `Size_ = Tuple[int, int]`, a dict)."""
    if param.annotation is None:
        return PROXY
    annotation = param.annotation.annotation
    outer = annotation.value if isinstance(annotation, cst.Subscript) else annotation
    qualified = imports.qualify(outer) or ""
    if qualified in ("typing.Optional",) and isinstance(annotation, cst.Subscript) and annotation.slice:
        inner = annotation.slice[0].slice
        if isinstance(inner, cst.Index):
            outer = inner.value.value if isinstance(inner.value, cst.Subscript) else inner.value
            qualified = imports.qualify(outer) or ""
    if qualified in TENSOR_CLASSES:
        return PROXY
    if qualified in SEQUENCE_ANNOTATIONS:
        return SEQ_P
    if qualified in SCALAR_ANNOTATIONS:
        return None
    return MAYBE


# -- the analysis -----------------------------------------------------------------------------------------------
_IN_PROGRESS = object()


def analyse(policy: "TracePolicy", entry: "CapturedFunction") -> Analysis | None:
    """The analysis of a traced function, computed once per run (None while it is being computed: recursion)."""
    key = id(entry.info.node)
    cached = policy.analyses.get(key)
    if cached is _IN_PROGRESS:
        return None
    if cached is not None:
        return cached  # type: ignore[return-value]
    policy.analyses[key] = _IN_PROGRESS
    try:
        params, placeholders, guessed = parameter_taint(policy, entry)
        domain = TaintDomain(policy, entry, params, placeholders, guessed)
        FlowWalker(domain, entry.pruned).run(entry.info.node)
        result = Analysis(domain.sinks, domain.call_args, placeholders)
    except RecursionError:
        result = Analysis()
    policy.analyses[key] = result
    return result


class TaintDomain(FlowDomain[Any]):
    unknown = None

    def __init__(self, policy: "TracePolicy", entry: "CapturedFunction", params: dict[str, Any],
                 placeholders: frozenset[str] = frozenset(), guessed: frozenset[str] = frozenset()) -> None:
        self.policy = policy
        self.placeholders = placeholders
        self.guessed = guessed  # parameters believed to be Proxies without a caller that shows it
        self.project = policy.project
        self.entry = entry
        self.imports = entry.info.module.imports
        self.params = params
        self.self_name = first_param_name(entry.info.node) if entry.info.bound_first_param == "instance" else None
        self.owners: list[ClassInfo] = list(entry.owners) or ([entry.info.cls] if entry.info.cls else [])
        self.sinks: list[Sink] = []
        self._reported: set[tuple[str, int]] = set()
        self.call_args: dict[int, tuple[list, dict, bool]] = {}
        self._values: dict[int, Any] = {}  # the value of an assignment's right-hand side, from `read`
        self._registered: dict[str, str] | None = None
        self.frame: Frame | None = None

    # -- reporting --------------------------------------------------------------------------------------------
    def sink(self, kind: str, node: cst.CSTNode, message: str) -> None:
        key = (kind, id(node))
        if key not in self._reported:
            self._reported.add(key)
            self.sinks.append(Sink(kind, node, message))

    # -- flow hooks -------------------------------------------------------------------------------------------
    def initial(self) -> dict[str, Any]:
        return dict(self.params)

    def read(self, reads: Reads, statement: cst.CSTNode, frame: Frame) -> None:
        self.frame = frame
        if isinstance(statement, (cst.If, cst.While)):
            self.truth(statement.test)
        elif isinstance(statement, cst.For):
            value = self.value(statement.iter)
            if value == PROXY:
                self.sink(ITERATE, statement.iter, "a `for` loop over a Proxy")
            self._values[id(statement)] = value
        elif isinstance(statement, cst.With):
            for item in statement.items:
                self._values[id(item)] = self.value(item.item)
        elif isinstance(statement, cst.Assign):
            self._values[id(statement)] = self.value(statement.value)
        elif isinstance(statement, cst.AnnAssign):
            self._values[id(statement)] = self.value(statement.value) if statement.value is not None else None
        elif isinstance(statement, cst.AugAssign):
            self._values[id(statement)] = self.value(statement.value)
        elif isinstance(statement, cst.Assert):
            self.truth(statement.test, assert_statement=True)
            if statement.msg is not None:
                self.value(statement.msg)
        elif isinstance(statement, cst.Return):
            if statement.value is not None:
                self.value(statement.value)
        elif isinstance(statement, cst.Expr):
            self.value(statement.value)
        elif isinstance(statement, cst.Del):
            pass

    def deferred(self, item, name) -> None:
        pass

    def assign(self, node: cst.Assign, frame: Frame) -> None:
        value = self._values.pop(id(node), None)
        if isinstance(node.value, cst.Call) and _Evaluator(self, False, {})._builds_module(node.value):
            value = MODULE_LOCAL
        for target in node.targets:
            self.bind_target(target.target, value, node.value, frame)

    def annotated_assign(self, node: cst.AnnAssign, frame: Frame) -> None:
        value = self._values.pop(id(node), None)
        if node.value is not None:
            self.bind_target(node.target, value, node.value, frame)

    def augmented_assign(self, node: cst.AugAssign, frame: Frame) -> None:
        value = self._values.pop(id(node), None)
        target = node.target
        if isinstance(target, cst.Name):
            old = frame.values.get(target.value)
            frame.bind(target.value, PROXY if PROXY in (old, value) else (MAYBE if MAYBE in (old, value) else old))
        elif isinstance(target, cst.Subscript):
            self.item_assignment(target)

    def for_target(self, node: cst.For, outer: Frame, body: Frame) -> None:
        value = self._values.pop(id(node), None)
        element = MAYBE if value in (SEQ_P, MAYBE) else None
        self.bind_target(node.target, element, None, body, iterated=True)

    def with_target(self, item: cst.WithItem, frame: Frame) -> None:
        value = self._values.pop(id(item), None)
        if item.asname is not None:
            self.bind_target(item.asname.name, value, None, frame)

    def walrus(self, node: cst.NamedExpr, frame: Frame) -> None:
        if isinstance(node.target, cst.Name):
            frame.bind(node.target.value, self.value(node.value, report=False))

    def refine(self, test, body, orelse) -> None:
        pass

    def asserted(self, node, frame) -> None:
        pass

    def returned(self, node, frame) -> None:
        pass

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
        pass

    # -- binding ----------------------------------------------------------------------------------------------
    def bind_target(self, target: cst.BaseExpression, value, source: cst.BaseExpression | None, frame: Frame,
                    iterated: bool = False) -> None:
        if isinstance(target, cst.Name):
            frame.bind(target.value, value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            elements = target.elements
            starred = any(isinstance(e, cst.StarredElement) for e in elements)
            if starred and value == PROXY:
                # `a, b = x.shape` is special-cased by FX (it knows the length); `a, *rest = x.shape` iterates.
                self.sink(ITERATE, source if source is not None else target,
                          "star-unpacking a Proxy (`a, *rest = x.shape`) iterates it; index it instead")
            literal = source.elements if isinstance(source, (cst.Tuple, cst.List)) and not starred else None
            for index, element in enumerate(elements):
                inner = element.value
                if isinstance(element, cst.StarredElement):
                    self.bind_target(inner, SEQ_P if value in _POSSIBLE or value == SEQ_P else SEQ, None, frame)
                    continue
                if literal is not None and index < len(literal) and not isinstance(literal[index], cst.StarredElement):
                    part = self.value(literal[index].value, report=False)
                elif value == PROXY:
                    part = PROXY
                elif value in (MAYBE, SEQ_P):
                    part = MAYBE
                else:
                    part = None
                self.bind_target(inner, part, None, frame)
        elif isinstance(target, cst.Subscript):
            self.item_assignment(target)
            base = target.value
            if isinstance(base, cst.Name) and frame.values.get(base.value) == SEQ and value in (*_POSSIBLE, SEQ_P):
                frame.values[base.value] = SEQ_P  # `out[i] = proxy`: the list now holds Proxies
            frame.read_names(target)
        else:
            frame.read_names(target)

    def item_assignment(self, target: cst.Subscript) -> None:
        if self.value(target.value, report=False) == PROXY:
            self.sink(ITEM_ASSIGN, target, "item assignment on a Proxy: FX records no in-place `__setitem__`; build "
                                           "the tensor with `torch.where`, `torch.cat` or an out-of-place op")

    # -- truth tests ------------------------------------------------------------------------------------------
    def truth(self, test: cst.BaseExpression, assert_statement: bool = False) -> None:
        """A test Python evaluates with `bool()`: `if`, `while`, `assert`, a ternary, `not`, `and`/`or`."""
        if isinstance(test, cst.BooleanOperation):
            self.truth(test.left)
            self.truth(test.right)
            return
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            self.truth(test.expression)
            return
        if self.value(test) == PROXY:
            what = "an `assert`" if assert_statement else "a condition"
            self.sink(BOOL, test, f"a Proxy used as a Python bool in {what}: symbolic_trace cannot follow control "
                                  "flow on traced values; use `torch.where`/`torch._assert`, make the decision from "
                                  "Python attributes, or wrap the function with `torch.fx.wrap`")

    # -- values -----------------------------------------------------------------------------------------------
    def name_value(self, name: str):
        frame = self.frame
        if frame is not None and name in frame.values:
            return frame.values[name]
        return None

    def value(self, node: cst.BaseExpression | None, report: bool = True, scope: dict | None = None):
        """The taint of an expression; with `report`, the sinks inside it are recorded."""
        if node is None:
            return None
        return _Evaluator(self, report, scope or {}).eval(node)

    # -- self attributes --------------------------------------------------------------------------------------
    def registered(self) -> dict[str, str]:
        """`self.register_buffer("b", ...)` / `self.register_parameter("p", ...)` names of the owners, by kind."""
        if self._registered is None:
            found: dict[str, str] = {}
            for owner in self.owners:
                for cls in self.project.mro(owner):
                    for method in cls.methods.values():
                        collector = _Registrations()
                        walk(method.node, collector)
                        for name, kind in collector.found.items():
                            found.setdefault(name, kind)
            self._registered = found
        return self._registered

    def self_attribute(self, name: str):
        """The taint of `self.<name>`: PROXY for a parameter, "buffer", "list", "module-list", "dict", "module"..."""
        registered = self.registered().get(name)
        if registered == "parameter":
            return PROXY
        if registered == "buffer":
            return "buffer"
        kinds: set = set()
        for owner in self.owners:
            info = self.project.attributes(owner).get(name)
            if info is not None:
                kinds |= info.kinds
        if not kinds:
            return None
        if any(isinstance(kind, CallResult) and kind.qualified in PARAMETER_CLASSES for kind in kinds):
            return PROXY
        if kinds <= {"list", "mixed-list", "literal", "none"} and "list" in kinds or kinds <= {"mixed-list"}:
            return SEQ
        if kinds <= {"ModuleList", "Sequential"}:
            return "module-list"
        if kinds <= {"dict"}:
            return DICT
        if kinds & {"module", "Sequential", "ModuleList", "ModuleDict"}:
            return "module"
        return None

    def submodule_leafness(self, name: str) -> bool | None:
        """For `self.<name>` holding a module: True when it is a leaf (one call_module node, a Proxy result),
        False for a traced project module, None when unknown."""
        constructors: set[str] = set()
        for owner in self.owners:
            info = self.project.attributes(owner).get(name)
            if info is not None:
                constructors |= info.constructors
        if not constructors:
            return None
        leaf = True
        for qualified in constructors:
            if qualified.startswith("torch.nn.") and is_torch_module_base(qualified):
                if qualified == "torch.nn.Sequential":
                    leaf = False
                continue
            cls = self.project.resolve_class(qualified)
            if cls is None:
                return None
            if not self.policy.leaves.leaf(cls):
                leaf = False
        return leaf


class _Registrations(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found: dict[str, str] = {}

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value in ("register_buffer", "register_parameter")
            and node.args
            and isinstance(node.args[0].value, cst.SimpleString)
        ):
            name = node.args[0].value.evaluated_value
            if isinstance(name, str):
                self.found.setdefault(name, "buffer" if func.attr.value == "register_buffer" else "parameter")


class _Evaluator:
    """Evaluates one expression's taint, recording the sinks on the way (comprehensions with their own names)."""

    def __init__(self, domain: TaintDomain, report: bool, scope: dict) -> None:
        self.domain = domain
        self.report = report
        self.scope = scope
        self.imports = domain.imports

    def sink(self, kind: str, node: cst.CSTNode, message: str) -> None:
        if self.report:
            self.domain.sink(kind, node, message)

    def eval(self, node: cst.BaseExpression):
        method = getattr(self, f"e_{type(node).__name__}", None)
        if method is None:
            for child in node.children:
                if isinstance(child, cst.BaseExpression):
                    self.eval(child)
            return None
        return method(node)

    def truth(self, test: cst.BaseExpression) -> None:
        if isinstance(test, cst.BooleanOperation):
            self.truth(test.left)
            self.truth(test.right)
            return
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            self.truth(test.expression)
            return
        if self.eval(test) == PROXY:
            self.sink(BOOL, test, "a Proxy used as a Python bool: symbolic_trace cannot follow control flow on traced "
                                  "values; use `torch.where`, make the decision from Python attributes, or wrap the "
                                  "function with `torch.fx.wrap`")

    # -- leaves -----------------------------------------------------------------------------------------------
    def e_Name(self, node: cst.Name):
        if node.value in self.scope:
            return self.scope[node.value]
        return self.domain.name_value(node.value)

    def e_Attribute(self, node: cst.Attribute):
        domain = self.domain
        base = node.value
        if isinstance(base, cst.Name) and base.value == domain.self_name and base.value not in self.scope:
            value = domain.self_attribute(node.attr.value)
            return value if value in (PROXY, SEQ, DICT, "buffer", "module-list") else None
        value = self.eval(base)
        return PROXY if value in _POSSIBLE else None

    def e_Subscript(self, node: cst.Subscript):
        base = self.eval(node.value)
        proxies = []
        for element in node.slice:
            index = element.slice
            if isinstance(index, cst.Index):
                if self.eval(index.value) == PROXY:
                    proxies.append(("index", index.value))
            elif isinstance(index, cst.Slice):
                for bound in (index.lower, index.upper, index.step):
                    if bound is not None and self.eval(bound) == PROXY:
                        proxies.append(("slice", bound))
        if base in _POSSIBLE:
            return PROXY if base == PROXY else MAYBE
        if proxies and base in (SEQ, SEQ_P, DICT, "module-list") or any(kind == "slice" for kind, _ in proxies) and base == "buffer":
            what = {"module-list": "a ModuleList/Sequential", "buffer": "a buffer (a concrete tensor while tracing)",
                    DICT: "a dict"}.get(base, "a Python list or tuple")
            self.sink(INDEX, node, f"{what} indexed or sliced by a Proxy: a traced value is not an integer while "
                                   "tracing; index a tensor with tensor ops, or wrap the function with `torch.fx.wrap`")
            return None
        if base == SEQ_P:
            return MAYBE
        return None

    def e_BinaryOperation(self, node: cst.BinaryOperation):
        left, right = self.eval(node.left), self.eval(node.right)
        if PROXY in (left, right):
            return PROXY
        if MAYBE in (left, right):
            return MAYBE
        return None

    def e_UnaryOperation(self, node: cst.UnaryOperation):
        if isinstance(node.operator, cst.Not):
            self.truth(node.expression)
            return None
        value = self.eval(node.expression)
        return value if value in _POSSIBLE else None

    def e_BooleanOperation(self, node: cst.BooleanOperation):
        self.truth(node.left)  # `a and b` / `a or b` calls bool(a); b is the value
        right = self.eval(node.right)
        return MAYBE if right in _POSSIBLE else None

    def e_Comparison(self, node: cst.Comparison):
        values = [self.eval(node.left)]
        identity = False
        for target in node.comparisons:
            operator = target.operator
            value = self.eval(target.comparator)
            if isinstance(operator, (cst.Is, cst.IsNot)):
                identity = True
                self._none_check(node, target)
            elif isinstance(operator, (cst.In, cst.NotIn)):
                if value == PROXY:
                    self.sink(ITERATE, target.comparator, "`in` on a Proxy iterates it; compare with tensor ops")
                elif values[-1] == PROXY and value in (SEQ, SEQ_P):
                    self.sink(BOOL, node, "`in` compares a Proxy with each element as a Python bool: symbolic_trace "
                                          "cannot follow control flow on traced values")
                identity = True
            values.append(value)
        if identity:
            return None
        if PROXY in values:
            return PROXY
        if MAYBE in values:
            return MAYBE
        return None

    def _none_check(self, node: cst.Comparison, target: cst.ComparisonTarget) -> None:
        left, right = node.left, target.comparator
        name = left if isinstance(left, cst.Name) else (right if isinstance(right, cst.Name) else None)
        other = right if name is left else left
        if name is None or not (isinstance(other, cst.Name) and other.value == "None"):
            return
        domain = self.domain
        if name.value in self.scope:
            return
        if name.value in domain.placeholders and domain.name_value(name.value) == PROXY:
            self.sink(NONE_CHECK, node, f"`{name.value}` is a forward parameter: while tracing it is always a Proxy, "
                                        "never None, so this test is fixed at trace time; trace with "
                                        f"`concrete_args={{'{name.value}': None}}` or split the forward")

    def e_IfExp(self, node: cst.IfExp):
        self.truth(node.test)
        return join(self.eval(node.body), self.eval(node.orelse))

    def e_NamedExpr(self, node: cst.NamedExpr):
        return self.eval(node.value)

    def _elements(self, elements) -> bool:
        """Evaluates the elements of a display; True when one holds a Proxy. Star-unpacking a Proxy iterates it."""
        holds = False
        for element in elements:
            if isinstance(element, cst.StarredElement):
                value = self.eval(element.value)
                if value == PROXY:
                    self.sink(ITERATE, element, "star-unpacking a Proxy (`*x.shape`) iterates it; index it, or "
                                                "concatenate shapes as tuples (`x.shape[:1] + (-1,)`)")
                holds = holds or value in (*_POSSIBLE, SEQ_P)
            elif isinstance(element, (cst.DictElement,)):
                self.eval(element.key)
                holds = self.eval(element.value) in _POSSIBLE or holds
            elif isinstance(element, cst.StarredDictElement):
                value = self.eval(element.value)
                if value == PROXY:
                    self.sink(ITERATE, element, "`**` of a Proxy iterates it")
            else:
                holds = self.eval(element.value) in (*_POSSIBLE, SEQ_P) or holds
        return holds

    def e_Tuple(self, node: cst.Tuple):
        return SEQ_P if self._elements(node.elements) else SEQ

    def e_List(self, node: cst.List):
        return SEQ_P if self._elements(node.elements) else SEQ

    def e_Set(self, node: cst.Set):
        self._elements(node.elements)
        return None

    def e_Dict(self, node: cst.Dict):
        self._elements(node.elements)
        return DICT

    def _comprehension(self, node) -> dict:
        scope = dict(self.scope)
        clause = node.for_in
        while clause is not None:
            inner = _Evaluator(self.domain, self.report, scope)
            iterated = inner.eval(clause.iter)
            if iterated == PROXY:
                self.sink(ITERATE, clause.iter, "a comprehension over a Proxy iterates it")
            element = MAYBE if iterated in (SEQ_P, MAYBE) else None
            for name in _target_names(clause.target):
                scope[name] = element
            inner = _Evaluator(self.domain, self.report, scope)
            for condition in clause.ifs:
                inner.truth(condition.test)
            clause = clause.inner_for_in
        return scope

    def e_ListComp(self, node: cst.ListComp):
        scope = self._comprehension(node)
        value = _Evaluator(self.domain, self.report, scope).eval(node.elt)
        return SEQ_P if value in _POSSIBLE else SEQ

    def e_GeneratorExp(self, node: cst.GeneratorExp):
        scope = self._comprehension(node)
        value = _Evaluator(self.domain, self.report, scope).eval(node.elt)
        return SEQ_P if value in _POSSIBLE else SEQ

    def e_SetComp(self, node: cst.SetComp):
        scope = self._comprehension(node)
        _Evaluator(self.domain, self.report, scope).eval(node.elt)
        return None

    def e_DictComp(self, node: cst.DictComp):
        scope = self._comprehension(node)
        inner = _Evaluator(self.domain, self.report, scope)
        inner.eval(node.key)
        inner.eval(node.value)
        return DICT

    def e_Lambda(self, node: cst.Lambda):
        return None

    def e_FormattedString(self, node: cst.FormattedString):
        return None

    def e_SimpleString(self, node):
        return None

    def e_ConcatenatedString(self, node):
        return None

    def e_Integer(self, node):
        return None

    def e_Float(self, node):
        return None

    def e_Imaginary(self, node):
        return None

    def e_Ellipsis(self, node):
        return None

    def e_Await(self, node: cst.Await):
        self.eval(node.expression)
        return None

    # -- calls ------------------------------------------------------------------------------------------------
    def e_Call(self, node: cst.Call):
        domain = self.domain
        positional: list = []
        keywords: dict = {}
        starred = False
        for arg in node.args:
            value = self.eval(arg.value)
            if arg.star == "*":
                starred = True
                if value == PROXY:
                    self.sink(ITERATE, arg, "`*` of a Proxy in a call iterates it; pass the tensor, or index it")
            elif arg.star == "**":
                starred = True
                if value == PROXY:
                    self.sink(ITERATE, arg, "`**` of a Proxy in a call iterates it; pass keyword arguments explicitly")
            elif arg.keyword is not None:
                keywords[arg.keyword.value] = value
            else:
                positional.append(value)
        if self.report:
            domain.call_args[id(node)] = (positional, keywords, starred)
        arguments = [*positional, *keywords.values()]
        any_proxy = PROXY in arguments or any(
            self._holds_proxy(arg.value) for arg in node.args if arg.star == ""
        )
        any_possible = any_proxy or MAYBE in arguments or SEQ_P in arguments
        func = node.func
        if not isinstance(func, (cst.Name, cst.Attribute)):
            callee = self.eval(func)  # `self.heads[i](x)`, `f()(x)`
            if isinstance(func, cst.Call) and self._builds_module(func):
                pass
            elif callee in _POSSIBLE:
                return PROXY
        # A method called on a Proxy is recorded (`x.size()`, `x.numpy()`, `x.sum()`).
        if isinstance(func, cst.Attribute):
            base = func.value
            if not (isinstance(base, cst.Name) and base.value == domain.self_name):
                receiver = self.eval(base)
                if (receiver in (SEQ, SEQ_P) and func.attr.value in ("append", "extend", "insert") and any_possible
                        and isinstance(base, cst.Name) and base.value not in self.scope and self.report):
                    domain.frame.values[base.value] = SEQ_P  # a list that now holds Proxies
                if receiver == PROXY or (receiver == MAYBE and func.attr.value not in _CONTAINER_METHODS):
                    return PROXY
                if receiver == MAYBE:
                    return MAYBE
        if isinstance(func, cst.Name) and func.value not in self.scope and domain.name_value(func.value) == MODULE_LOCAL:
            self.sink(MODULE_IN_FORWARD, node, "calls a module built inside the traced function: symbolic_trace "
                                               "needs every module it calls to be a submodule; build it in `__init__`")
            return PROXY
        if isinstance(func, cst.Call) and self._builds_module(func):
            self.sink(MODULE_IN_FORWARD, node, "calls a module built inside the traced function: symbolic_trace "
                                               "needs every module it calls to be a submodule; build it in `__init__`")
            return PROXY
        # self.<submodule>(...) / self.<method>(...)
        if (
            isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Name)
            and func.value.value == domain.self_name
            and domain.self_name not in self.scope
        ):
            name = func.attr.value
            method = next((m for owner in domain.owners if (m := domain.project.find_method(owner, name))), None)
            if method is not None:
                return self._project_call(method, node, any_possible)
            leaf = domain.submodule_leafness(name)
            if leaf is True:
                return PROXY
            if leaf is False:
                return MAYBE
            attribute = domain.self_attribute(name)
            if attribute == PROXY:
                return PROXY
            return MAYBE if any_possible else None
        qualified = self.imports.qualify(func) if isinstance(func, (cst.Name, cst.Attribute)) else None
        if qualified is None:
            return MAYBE if any_possible else None
        return self._qualified_call(node, qualified, positional, any_proxy, any_possible)

    def _holds_proxy(self, value: cst.BaseExpression) -> bool:
        return isinstance(value, (cst.Tuple, cst.List)) and self.eval(value) == SEQ_P and any(
            not isinstance(e, cst.StarredElement) and _Evaluator(self.domain, False, self.scope).eval(e.value) == PROXY
            for e in value.elements
        )

    def _builds_module(self, call: cst.Call) -> bool:
        qualified = self.imports.qualify(call.func) if isinstance(call.func, (cst.Name, cst.Attribute)) else None
        if not qualified:
            return False
        if qualified.startswith("torch.nn.") and is_torch_module_base(qualified) and qualified.count(".") == 2:
            return True
        target = self.domain.project.resolve_class(qualified)
        return target is not None and self.domain.project.is_module_class(target)

    def _project_call(self, function: FunctionInfo, call: cst.Call, any_possible: bool):
        if "torch.jit.script" in function.decorators:
            return None
        if self.domain.policy.leaves.wrapped_call(function, call, self.domain.entry.info.module):
            return PROXY if any_possible else None
        return MAYBE if any_possible else None

    def _qualified_call(self, node: cst.Call, qualified: str, positional: list, any_proxy: bool, any_possible: bool):
        domain = self.domain
        first = positional[0] if positional else None
        if qualified in _BUILTIN_MESSAGES:
            if qualified in ("builtins.max", "builtins.min"):
                if any_proxy and len(node.args) > 1:
                    self.sink(BUILTIN, node, _BUILTIN_MESSAGES[qualified])
                elif first == PROXY:
                    self.sink(ITERATE, node, f"`{qualified[9:]}()` of a Proxy iterates it; use `torch.{qualified[9:]}`")
            elif PROXY in positional:
                self.sink(BUILTIN, node, _BUILTIN_MESSAGES[qualified])
            return None
        if qualified == "builtins.bool":
            if first == PROXY:
                self.sink(BOOL, node, "`bool()` of a Proxy: symbolic_trace cannot follow control flow on traced values")
            return None
        if qualified in _ITERATING_BUILTINS:
            if qualified == "builtins.zip" and PROXY in positional or first == PROXY:
                name = qualified[9:]
                self.sink(ITERATE, node, f"`{name}()` iterates a Proxy; use tensor ops, or index the shape")
            return SEQ_P if any_possible else None
        if qualified == "builtins.isinstance":
            argument = node.args[0].value if node.args else None
            guessed = isinstance(argument, cst.Name) and argument.value in domain.guessed
            # A guessed parameter may be a list a parent passes (densenet's layers take one or a list): an
            # isinstance test on it is how such code chooses, not a mis-trace.
            if first == PROXY and not guessed and not _tests_proxy_class(node, self.imports):
                self.sink(ISINSTANCE, node, "`isinstance` of a Proxy: while tracing the value is a `torch.fx.Proxy`, "
                                            "not a Tensor (or list), so this test is fixed at trace time")
            return None
        if qualified in _PROXY_BUILTINS:
            return PROXY if first == PROXY else None
        if qualified.startswith("builtins."):
            return None
        if qualified.startswith(("numpy.", "np.")) or qualified == "torch.from_numpy":
            if any_proxy:
                self.sink(NUMPY, node, "NumPy on a Proxy: a traced value has no data while tracing; use torch "
                                       "operations, or wrap the function with `torch.fx.wrap`")
            return None
        if qualified in VARARGS_FACTORIES:
            if first == PROXY and len(positional) > 1:
                self.sink(FACTORY, node, f"`{qualified}` with sizes as separate arguments and a Proxy first: pass "
                                         "the sizes as one tuple (`torch.zeros((n, 3))`), or use `x.new_zeros(n, 3)`")
            return PROXY if any_possible else None
        if qualified in ("torch.tensor", "torch.as_tensor") and node.args and self._holds_proxy(node.args[0].value):
            self.sink(BUILTIN, node, f"`{qualified}` of a list holding a Proxy calls `len()` on it (\"'len' is not "
                                     "supported in symbolic tracing by default\"); build it with `torch.stack` or "
                                     "`torch.cat` of tensors")
            return PROXY
        if qualified == "torch.finfo":
            if first == PROXY:
                self.sink(FINFO, node, "`torch.finfo` of a Proxy dtype: pass a concrete dtype "
                                       "(`torch.finfo(torch.float32)`), or wrap the function with `torch.fx.wrap`")
            return None
        if qualified in ("torch.iinfo",) or qualified.startswith("torch.jit.") or qualified.startswith("torch.fx."):
            return None
        if qualified.startswith("math."):
            return PROXY if any_proxy else (MAYBE if any_possible else None)
        if qualified.startswith("torch."):
            if is_torch_module_base(qualified):
                return None  # building a module; `MODULE_LOCAL` is bound by the assignment
            return PROXY if any_possible else None
        target = domain.project.resolve(qualified)
        if isinstance(target, FunctionInfo):
            if "torch.jit.script" in target.decorators:
                if any_possible:
                    self.sink(SCRIPT_CALL, node, "a `torch.jit.script` function called with a Proxy: a ScriptFunction "
                                                 "checks its argument types and rejects a Proxy; call a plain Python "
                                                 "function while tracing")
                return None
            return self._project_call(target, node, any_possible)
        if isinstance(target, ClassInfo):
            return None
        return MAYBE if any_possible else None


def _tests_proxy_class(call: cst.Call, imports) -> bool:
    if len(call.args) < 2:
        return True
    classes = call.args[1].value
    elements = [e.value for e in classes.elements] if isinstance(classes, cst.Tuple) else [classes]
    return any((imports.qualify(e) or "").startswith("torch.fx") for e in elements)


def _target_names(target: cst.BaseExpression) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        names = []
        for element in target.elements:
            names.extend(_target_names(element.value))
        return names
    return []

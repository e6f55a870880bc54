"""Data dependence: what each value of a captured function is, as the capturing tool sees it, for the tools that run
the model's Python once and record tensor operations (torch.export, torch.jit.trace, torch.compile).

One analysis, one fact (`DataDependence`), shared by those targets: the value kinds below, computed by one abstract
domain over the shared flow walker (`jitlint.facts.flow`). What differs between the tools is a *policy*
(`DatadepPolicy`), supplied by each target and named by its capture policy (`CapturePolicy.datadep`):

- what a shape is: export runs on fake tensors whose sizes are symbols it can reason about (`x.shape[0]` is fine,
  only sizes of tensors whose shape depends on data are data); under `torch.jit.trace` every `x.size(i)`,
  `x.shape[i]` and `x.numel()` is a traced 0-dim tensor that stays dynamic where an op takes it and is frozen by a
  Python conversion, while `x.dim()`, `x.ndim` and `len(x)` are plain ints (verified on torch 2.13);
- what freezes or rejects a value, and therefore what the policy records: its events (typed results the target's
  rules report), from the hooks the domain calls at each statement (`read`, `asserted`, `returned`, `loop`);
- whether a helper's parameters take the kinds its callers pass (`follow_calls`): a traced value passed to a
  function the forward calls is traced there too.

The kinds of value (strings, None when nothing is known):

- "tensor": a Tensor (a parameter annotated `Tensor` or, TorchScript-style, an unannotated `forward` parameter; a
  torch function's result; a tensor method's result; arithmetic with a tensor);
- "mask": a boolean tensor (`x > 0`, one made with `dtype=torch.bool`): indexing with it gives a data-dependent shape;
- "ddtensor": a tensor whose *shape* depends on data (`x[mask]`, `nonzero`, `unique`, `nms`): its sizes are data;
- "tensors": a sequence of tensors (`split`, `chunk`, `unbind`, `List[Tensor]`): its items are tensors, its
  truth value and length are not data; "ddtensors": the same of data-dependent size (`torch.where(cond)`);
- "data": a Python number or bool computed from tensor data (`.item()`, a size of a "ddtensor" where the policy
  says so, arithmetic on data); "datalist": `.tolist()` (its items are data);
- "shape": `x.shape` / `x.size()` of a tensor; "ddshape": the same of a "ddtensor" (items: the policy's `size`);
- "size": one size that the capture records as a value of the program (a policy's `size`: torch.jit.trace);
  "sizes": a list comprehension or generator of them (`comprehension_kinds`);
- "baked": a Python number the capture computed once from a recorded size (`int(x.shape[0])`, `math.sqrt(...)`,
  `len(x)`): a constant of the captured program (a policy's `builtin`);
- "prop": a Python value describing an input without being recorded (rank, dtype: a policy's `rank`, `dtype`);
  "device": `x.device`, `x.is_cuda`;
- "ndarray": a NumPy array (`x.numpy()`, `np.*(...)`): its methods are not tensor methods;
- "const": a tensor of one Python number (`torch.tensor(2.0)`) and torch ops on it: fake tensors keep its value,
  so `.item()` and `float()` of it are fine (torchvision's `_infer_scale` and `MultiScaleRoIAlign` rely on it).

Joins of different kinds give None (unknown): a finding needs the kind on every path, so that code a tool accepts
is not flagged on a guess; a policy may keep a kind joined with an unknown value (`DatadepPolicy.join`: what may
reach a place, for a tool that freezes it on whichever path it is taken). A policy with `tuple_kinds` gives a tuple
display the tuple of its elements' kinds (`jitlint.facts.datadep_tuples`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import libcst as cst

from jitlint.facts import CyclicFact, Fact, FactStore, read_fact
from jitlint.facts.datadep_calls import CallKinds, made_by_torch
from jitlint.facts.datadep_policy import DEPENDENT, RECORDED, TENSORISH, DatadepPolicy  # noqa: F401 (RECORDED: shared)
from jitlint.facts.datadep_tables import OPTIONAL, SEQUENCE_ANNOTATIONS, TENSOR_ANNOTATIONS, without_none
from jitlint.facts.datadep_tuples import (
    concatenated, display, flat, is_tuple, item, same, spread_display, unpacked,
)
from jitlint.facts.flow import FlowDomain, FlowWalker, Frame, Reads
from jitlint.facts.signature import comment_types, passed_to
from jitlint.facts.torch_api import PARAMETER_CLASSES
from jitlint.names import first_param_name

if TYPE_CHECKING:
    from jitlint.capture import CapturedFunction
    from jitlint.rules.base import RuleContext


@dataclass
class DatadepResult:
    """The data dependence of one function: the policy's events, and what each call passes (the kind of each of its
    arguments, in the order of `call.args`, by the call node's id: what a helper's parameters receive)."""

    events: list = field(default_factory=list)
    arguments: dict[int, tuple] = field(default_factory=dict)


class DatadepDomain(CallKinds, FlowDomain):
    unknown = None

    def __init__(self, function: cst.FunctionDef, ctx: "RuleContext", entry: "CapturedFunction | None",
                 policy: DatadepPolicy, parameters: dict[str, str | None] | None = None) -> None:
        self.function = function
        self.ctx = ctx
        self.entry = entry
        self.policy = policy
        self.carries_round_loops = policy.carries_round_loops  # (`FlowDomain.carries_round_loops`)
        self.imports = ctx.module.imports
        info = entry.info if entry is not None else None
        self.is_forward = function.name.value == "forward" and info is not None and info.cls is not None
        self.self_name = first_param_name(function) if info is not None and info.bound_first_param else None
        self.parameters = parameters or {}  # kinds the callers pass, by parameter name (`follow_calls`)
        self.arguments: dict[int, tuple] = {}
        self.returns: list[str | None] = []  # the kind of each `return` reached, in order
        self.quiet = False  # True: only the kinds are wanted (no events, no arguments)
        self._memo: dict[int, tuple] = {}  # id(expression) -> (expression, frame, kind), until a name is bound
        self.frame: Frame | None = None

    @property
    def events(self) -> list:
        return self.policy.events

    def decide(self, test: cst.BaseExpression, frame: Frame) -> bool | None:
        return self.policy.decided(test, self)

    # -- the value of an expression -----------------------------------------------------------------------------
    def kind(self, node: cst.BaseExpression | None, frame: Frame | None = None) -> str | None:
        frame = frame or self.frame
        if node is None or frame is None:
            return None
        if isinstance(node, cst.Name):
            return frame.values.get(node.value)
        # Kept while no name is bound: the rules ask again for the same expressions of a statement.
        found = self._memo.get(id(node))
        if found is not None and found[0] is node and found[1] is frame:
            return found[2]
        kind = self._kind(node, frame)
        self._memo[id(node)] = (node, frame, kind)
        return kind

    def _kind(self, node: cst.BaseExpression, frame: Frame) -> str | None:
        if isinstance(node, cst.Attribute):
            return self._attribute(node, frame)
        if isinstance(node, cst.Subscript):
            return self._subscript(node, frame)
        if isinstance(node, cst.Call):
            return self._call(node, frame)
        if isinstance(node, (cst.ListComp, cst.GeneratorExp)) and self.policy.comprehension_kinds:
            return {"size": "sizes", "tensor": "tensors", "ddtensor": "ddtensors"}.get(self.element_kind(node, frame) or "")
        if isinstance(node, (cst.Tuple, cst.List)) and self.policy.tuple_kinds:
            if not any(isinstance(element, cst.StarredElement) for element in node.elements):
                return display([self.kind(element.value, frame) for element in node.elements])
            return None
        if isinstance(node, cst.BinaryOperation):
            left, right = self.kind(node.left, frame), self.kind(node.right, frame)
            if is_tuple(left) or is_tuple(right):
                return concatenated(left, right) if isinstance(node.operator, cst.Add) else None
            if isinstance(node.operator, cst.MatrixMultiply):
                return "tensor" if TENSORISH & {left, right} else None
            combined = self.policy.arithmetic(left, right)
            if combined is not None:
                return combined
            if "data" in (left, right):
                return "data"
            if "ndarray" in (left, right) and not TENSORISH & {left, right}:
                return "ndarray"
            if "const" in (left, right) and not TENSORISH & {left, right}:
                return "const"
            if "ddtensor" in (left, right):
                return "ddtensor"
            if TENSORISH & {left, right}:
                return "tensor"
            if "size" in (left, right):
                return "size"  # arithmetic on a recorded size is recorded (`x.size(0) // 2`)
            if "baked" in (left, right):
                return "baked"
            return None
        if isinstance(node, cst.Comparison):
            if any(isinstance(target.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)) for target in node.comparisons):
                return None
            kinds = flat({self.kind(node.left, frame)} | {self.kind(target.comparator, frame)
                          for target in node.comparisons})
            if TENSORISH & kinds:
                return "mask"
            compared = self.policy.compared(kinds)
            if compared is not None:
                return compared
            if "data" in kinds or "ddshape" in kinds:
                return "data"
            return None
        if isinstance(node, cst.UnaryOperation):
            inner = self.kind(node.expression, frame)
            if isinstance(node.operator, cst.Not):
                if inner in ("size", "prop", "baked"):
                    return inner
                return "data" if inner in DEPENDENT else None
            return inner if inner in DEPENDENT | {"ndarray", "const", "size", "baked"} else None
        if isinstance(node, cst.BooleanOperation):
            kinds = {self.kind(node.left, frame), self.kind(node.right, frame)}
            if DEPENDENT & kinds:
                return "data"
            for kind in ("size", "prop", "baked"):
                if kind in kinds:
                    return kind
            return None
        if isinstance(node, cst.IfExp):
            return self.policy.join(self.kind(node.body, frame), self.kind(node.orelse, frame))
        if isinstance(node, cst.NamedExpr):
            return self.kind(node.value, frame)
        return None

    def element_kind(self, node: cst.ListComp | cst.GeneratorExp, frame: Frame) -> str | None:
        """The kind of a comprehension's element, its `for` targets bound to the items of what they iterate (in a
        scope of their own: the function's names are not rebound)."""
        inner = Frame(frame.walker, dict(frame.values), dict(frame.depth), frame.level)
        clause: cst.CompFor | None = node.for_in
        while clause is not None:
            if clause.asynchronous is not None:
                return None
            if isinstance(clause.target, cst.Name):
                inner.values[clause.target.value] = self.policy.loop_item(self.kind(clause.iter, inner))
            else:  # `for a, b in zip(xs, ys)`, `for i, x in enumerate(xs)`: each name from its own iterable
                parts = self.zipped(clause.iter, clause.target, inner)
                if parts is None or not all(isinstance(element.value, cst.Name) for element in clause.target.elements):
                    return None
                for element, kind in zip(clause.target.elements, parts):
                    inner.values[element.value.value] = kind
            clause = clause.inner_for_in
        return self.kind(node.elt, inner)

    def _attribute(self, node: cst.Attribute, frame: Frame) -> str | None:
        attr = node.attr.value
        if isinstance(node.value, cst.Name) and node.value.value == self.self_name and self.self_name is not None:
            return self._self_attribute(attr)
        base = self.kind(node.value, frame)
        if base is None and attr == "shape" and self.policy.shape_of_unknown:
            return "shape"
        if base in TENSORISH:
            if attr == "shape":
                return "ddshape" if base == "ddtensor" else "shape"
            if attr in ("T", "mT", "H", "mH", "data", "real", "imag"):
                return "tensor" if base == "mask" else base
            if attr in ("device", "is_cuda", "is_cpu", "is_mps"):
                return "device"
            if attr == "ndim":
                return self.policy.rank()
            if attr in ("dtype", "is_floating_point", "is_quantized", "layout"):
                return self.policy.dtype()
            return None
        if base == "device" and attr in ("type", "index"):
            return "device"
        return None

    def registered(self, name: str) -> bool:
        """`self.<name>` is a registered buffer or parameter (`register_buffer`, `register_parameter`) of a class the
        function is captured for."""
        for owner in self.entry.owners if self.entry is not None else ():
            info = self.ctx.project.attributes(owner).get(name)
            if info is not None and info.registered:
                return True
        return False

    def _self_attribute(self, name: str) -> str | None:
        if self.registered(name):
            return "tensor"
        owners = self.entry.owners if self.entry is not None else ()
        infos = [info for owner in owners if (info := self.ctx.project.attributes(owner).get(name)) is not None]
        if not infos:
            return None
        if any(info.constructors & PARAMETER_CLASSES for info in infos) or any(
                getattr(kind, "qualified", None) in PARAMETER_CLASSES for info in infos for kind in info.kinds) or (
                self.policy.plain_tensor_attributes and made_by_torch(infos)):
            return "tensor"
        if self.policy.follow_returns:  # what a method of the class built it from returns
            built = {self._built_by_method(owner, info) for owner in owners
                     if (info := self.ctx.project.attributes(owner).get(name)) is not None}
            if len(built) == 1:
                return next(iter(built))
        return None

    def _subscript(self, node: cst.Subscript, frame: Frame) -> str | None:
        base = self.kind(node.value, frame)
        if is_tuple(base):
            return item(base, node)
        if base in TENSORISH:
            for element in node.slice:
                # A boolean mask, or indices of data-dependent length: the result's size depends on data.
                if isinstance(element.slice, cst.Index) and self.kind(element.slice.value, frame) in ("mask", "ddtensor"):
                    return "ddtensor"
            return "ddtensor" if base == "ddtensor" else "tensor"
        if base in ("shape", "ddshape") and any(isinstance(element.slice, cst.Slice) for element in node.slice):
            return base
        if base in ("shape", "ddshape"):
            return self.policy.size("ddtensor" if base == "ddshape" else "tensor")
        if base == "datalist":
            return "data"
        if base == "sizes":
            return base if any(isinstance(element.slice, cst.Slice) for element in node.slice) else "size"
        if base in ("tensors", "ddtensors") and any(isinstance(element.slice, cst.Slice) for element in node.slice):
            return base  # a slice of a sequence of tensors is one
        if base == "tensors":
            return "tensor"
        if base == "ddtensors":
            return "ddtensor"
        return None

    # -- the walker's hooks --------------------------------------------------------------------------------------
    def initial(self) -> dict[str, str | None]:
        values: dict[str, str | None] = {}
        params = self.function.params
        everything = [*params.posonly_params, *params.params, *params.kwonly_params]
        for index, param in enumerate(everything):
            name = param.name.value
            if index == 0 and self.self_name == name:
                continue
            values[name] = self._param_kind(param)
            if name in self.parameters:
                values[name] = self.policy.parameter(values[name], self.parameters[name])
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                values[star.name.value] = None
        return values

    def _param_kind(self, param: cst.Param) -> str | None:
        if param.annotation is None and self.policy.type_comments:
            typed = comment_types(self.function, self.self_name is not None).get(param.name.value)
            if typed is not None:
                # TorchScript evaluates the comment with `Tensor` (and `List`, `Optional`...) predefined
                # (`torch.jit.annotations.EvalEnv`): a bare `Tensor` needs no import.
                bare = isinstance(typed, cst.Name) and typed.value == "Tensor" and not self.imports.qualify(typed)
                return "tensor" if bare else self._annotated(typed, self.imports)
        if param.annotation is None:
            # TorchScript types an unannotated parameter as a Tensor; export's inputs are tensors: forward only.
            return self.policy.model_input(self.function, param.name.value) if (
                self.is_forward and param.default is None) else None
        return self._annotated(param.annotation.annotation, self.imports)

    def _annotated(self, annotation: cst.BaseExpression, imports) -> str | None:
        """The kind an annotation gives: "tensor" (`Tensor`, `Optional[Tensor]`), "tensors" (`List[Tensor]`...)."""
        if self.policy.union_annotations:
            annotation = without_none(annotation)
        outer = annotation.value if isinstance(annotation, cst.Subscript) else annotation
        qualified = imports.qualify(outer) or ""
        if qualified in TENSOR_ANNOTATIONS:
            return "tensor"
        if isinstance(annotation, cst.Subscript) and qualified in OPTIONAL | SEQUENCE_ANNOTATIONS:
            inner = annotation.slice[0].slice
            if isinstance(inner, cst.Index) and (imports.qualify(inner.value) or "") in TENSOR_ANNOTATIONS:
                return "tensor" if qualified in OPTIONAL else "tensors"
        return None

    def _built_by_method(self, owner, info) -> str | None:
        """`self.<name> = self.<method>(...)` in `__init__`, every time, with a method annotated to return tensors
        (`-> list[Tensor]`): the kind the annotation gives."""
        kinds = set()
        for value in info.init_values:
            node = value.node
            if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
                    and isinstance(node.func.value, cst.Name)):
                return None
            method = self.ctx.project.find_method(owner, node.func.attr.value)
            if method is None or method.node.returns is None:
                return None
            kinds.add(self._annotated(method.node.returns.annotation, method.module.imports))
        return next(iter(kinds)) if len(kinds) == 1 else None

    def read(self, reads: Reads, statement: cst.CSTNode, frame: Frame) -> None:
        self.frame = frame
        self._memo.clear()
        if self.quiet:
            return
        if self.policy.follow_calls:
            sited = self.ctx.captured.site_calls
            for call in reads.calls:
                if id(call) not in sited:
                    continue  # no project function is called there: no parameter takes what it passes
                self.arguments[id(call)] = tuple(None if arg.star else self.kind(arg.value, frame)
                                                 for arg in call.args)
        self.policy.read(self, reads, statement, frame)

    def deferred(self, item, name: cst.Name) -> None:
        pass

    def element(self, value: str | None) -> str | None:
        """The kind of an item of a sequence of kind `value`, unpacked or iterated."""
        if value in ("shape", "ddshape"):
            return self.policy.size("ddtensor" if value == "ddshape" else "tensor")
        if is_tuple(value):
            return same(value)
        return {"tensors": "tensor", "ddtensors": "ddtensor", "datalist": "data", "sizes": "size"}.get(value or "")

    def _bind(self, frame: Frame, name: str, value) -> None:
        self._memo.clear()
        frame.bind(name, value)

    def _bind_target(self, target: cst.BaseExpression, value: str | None, frame: Frame) -> None:
        if isinstance(target, cst.Name):
            self._bind(frame, target.value, value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            items = unpacked(value, list(target.elements)) if is_tuple(value) else None
            for index, element in enumerate(target.elements):
                inner = element.value
                if isinstance(element, cst.StarredElement):
                    self._bind_target(inner, None, frame)
                else:
                    self._bind_target(inner, self.element(value) if items is None else items[index], frame)
        else:
            frame.read_names(target)

    def assign(self, node: cst.Assign, frame: Frame) -> None:
        if (len(node.targets) == 1 and isinstance(node.targets[0].target, (cst.Tuple, cst.List))
                and isinstance(node.value, (cst.Tuple, cst.List))
                and len(node.targets[0].target.elements) == len(node.value.elements)
                and not any(isinstance(e, cst.StarredElement) for e in (*node.targets[0].target.elements,
                                                                        *node.value.elements))):
            # `a, b = x[keep], y[keep]`: each name gets its own value (all read before any is bound).
            values = [self.kind(element.value, frame) for element in node.value.elements]
            for element, value in zip(node.targets[0].target.elements, values):
                self._bind_target(element.value, value, frame)
            return
        if self.policy.tuple_kinds and len(node.targets) == 1:
            spread = spread_display(node.targets[0].target, node.value, lambda value: self.kind(value, frame),
                                    self.element)
            if spread is not None:  # `h, w, k = *x.shape[-2:], self.k`: each name from its place in the display
                for element, value in zip(node.targets[0].target.elements, spread):
                    self._bind_target(element.value, value, frame)
                return
        value = self.kind(node.value, frame)
        for target in node.targets:
            self._bind_target(target.target, value, frame)

    def annotated_assign(self, node: cst.AnnAssign, frame: Frame) -> None:
        if not isinstance(node.target, cst.Name):
            frame.read_names(node.target)
            return
        outer = node.annotation.annotation
        qualified = self.imports.qualify(outer.value if isinstance(outer, cst.Subscript) else outer) or ""
        value = "tensor" if qualified in TENSOR_ANNOTATIONS else self.kind(node.value, frame)
        self._bind(frame, node.target.value, value)

    def augmented_assign(self, node: cst.AugAssign, frame: Frame) -> None:
        if isinstance(node.target, cst.Name):
            combined = cst.BinaryOperation(left=node.target, operator=cst.Add(), right=node.value)
            self._bind(frame, node.target.value, self.kind(combined, frame))
        else:
            frame.read_names(node.target)

    def for_target(self, node: cst.For, outer: Frame, body: Frame) -> None:
        iterable = self.kind(node.iter, outer)
        if not self.quiet:
            self.policy.loop(self, node, iterable, outer)
        parts = self.zipped(node.iter, node.target, outer)
        if parts is None:
            self._bind_target(node.target, self.policy.loop_item(iterable), body)
            return
        for element, kind in zip(node.target.elements, parts):
            self._bind_target(element.value, kind, body)

    def zipped(self, iterable: cst.BaseExpression, target: cst.BaseExpression, frame: Frame) -> list | None:
        """What each element of a tuple target gets from `zip(a, b, ...)` (an item of each iterable, at its place)
        or `enumerate(a)` (an index, then an item of `a`), iterated by a `for` or a comprehension; None for another
        iterable or target shape."""
        if not (isinstance(iterable, cst.Call) and isinstance(target, (cst.Tuple, cst.List))
                and not any(isinstance(element, cst.StarredElement) for element in target.elements)):
            return None
        function = self.imports.qualify(iterable.func)
        positional = [arg for arg in iterable.args if arg.keyword is None]
        if any(arg.star for arg in iterable.args):
            return None
        if function == "builtins.zip" and len(positional) == len(iterable.args) == len(target.elements):
            return [self.policy.loop_item(self.kind(arg.value, frame)) for arg in positional]
        if function == "builtins.enumerate" and len(positional) == 1 and len(target.elements) == 2:
            return [None, self.policy.loop_item(self.kind(positional[0].value, frame))]
        return None

    def with_target(self, item: cst.WithItem, frame: Frame) -> None:
        self._bind_target(item.asname.name, None, frame)

    def walrus(self, node: cst.NamedExpr, frame: Frame) -> None:
        if isinstance(node.target, cst.Name):
            self._bind(frame, node.target.value, self.kind(node.value, frame))

    def refine(self, test, body: Frame, orelse: Frame) -> None:
        pass

    def asserted(self, node: cst.Assert, frame: Frame) -> None:
        self.frame = frame
        if not self.quiet:
            self.policy.asserted(self, node, frame)

    def returned(self, node: cst.Return, frame: Frame) -> None:
        self.frame = frame
        self.returns.append(self.kind(node.value, frame) if node.value is not None else None)
        if not self.quiet:
            self.policy.returned(self, node, frame)

    def uncertain(self, test) -> bool:
        return False

    def join(self, name, first, second):
        return self.policy.join(first, second)

    def join_new(self, name, first, second, node, frame):
        return self.policy.join(first, second)

    def one_branch(self, name, in_body, node, frame) -> None:
        pass

    def uncertain_join(self, before, after):
        return self.policy.join(before, after)

    def loop_join(self, before, after):
        return self.policy.carried(before, after)

    def first_set_in_loop(self, name, node, frame) -> None:
        pass


class _OtherFiles:
    """The data dependence of captured callers in other files than the one being linted, kept for the run (by
    capture policy and module): a helper's parameters take the kinds its callers pass wherever they are. A caller
    whose analysis is under way (calls that go round through several files) passes nothing known.

    Under a policy that follows calls, every function's result is kept for the run (`results`), whichever file
    asked for it first: the file's own lint and the helpers of other files read the same one. A result computed
    while some caller's analysis was under way (`cycles` moved) may lack what that caller passes: it is not kept."""

    def __init__(self) -> None:
        self.stores: dict[tuple, tuple] = {}  # (policy, id(module)) -> (module, FactStore)
        self.running: set[tuple] = set()
        self.results: dict[tuple, tuple] = {}  # (policy, id(function node)) -> (node, DatadepResult)
        self.cycles = 0  # callers skipped because their analysis was under way

    def result(self, ctx: "RuleContext", caller) -> "DatadepResult":
        key = (ctx.policy, id(caller.module))
        found = self.stores.get(key)
        if found is None or found[0] is not caller.module:
            found = self.stores[key] = (caller.module, FactStore())
        running = (ctx.policy, id(caller.node))
        if running in self.running:
            raise CyclicFact(f"{DataDependence.__qualname__} reads itself across files")
        other = type(ctx)(caller.module, ctx.project, ctx.captured, policy=ctx.policy, facts=found[1],
                          settings=ctx.settings)
        other.targets = ctx.targets
        self.running.add(running)
        try:
            return read_fact(other, DataDependence, DataDependence, caller.node, ())
        finally:
            self.running.discard(running)


def _other_files(ctx: "RuleContext") -> _OtherFiles:
    others = ctx.project.derived.get(_OtherFiles)
    if others is None:
        others = ctx.project.derived[_OtherFiles] = _OtherFiles()
    return others


def _caller_result(ctx: "RuleContext", caller) -> "DatadepResult":
    if caller.module is ctx.module:
        return ctx.fact(DataDependence, caller.node)
    return _other_files(ctx).result(ctx, caller)


def _caller_kinds(ctx: "RuleContext", node: cst.FunctionDef, entry: "CapturedFunction",
                  policy: DatadepPolicy) -> dict[str, str | None]:
    """The kinds the captured callers pass to each parameter of `node`, in any file of the run (joined over the
    calls by the policy's `passed`); its capture policy says `needs_one_process` (every caller is in this process)."""
    seen: dict[str, set] = {}
    for site in ctx.captured.calls_to(node):
        caller = site.caller
        if caller is None or site.call is None or caller.node is node:
            continue
        try:
            result = _caller_result(ctx, caller)
        except CyclicFact:
            _other_files(ctx).cycles += 1
            continue
        passed = result.arguments.get(id(site.call))
        if passed is None:
            continue
        for name, index in passed_to(node, site.call, site.bound).items():
            seen.setdefault(name, set()).add(passed[index])
    found = {}
    for name, kinds in seen.items():
        kind = policy.passed(frozenset(kinds - {None}))
        if kind is not None:
            found[name] = kind
    return found


class DataDependence(Fact):
    """The data dependence of a captured function under its capture's policy (`CapturePolicy.datadep`): a
    `DatadepResult`, computed once per file and capture policy for every rule that reports its events."""

    @classmethod
    def compute(cls, ctx: "RuleContext", node: cst.FunctionDef) -> DatadepResult:
        policy_class = getattr(ctx.captured.policy, "datadep", None)
        if policy_class is None:
            raise TypeError(f"the capture policy {ctx.policy!r} names no data-dependence policy (`datadep`)")
        policy = policy_class()
        entry = ctx.captured.get(node)
        run = _other_files(ctx) if policy.follow_calls else None
        if run is not None:
            found = run.results.get((ctx.policy, id(node)))
            if found is not None and found[0] is node:
                return found[1]
            cycles = run.cycles
        parameters = {}
        into = node.name.value != "forward" or policy.follow_calls_into_forward
        if policy.follow_calls and entry is not None and into:
            parameters = _caller_kinds(ctx, node, entry, policy)
        domain = DatadepDomain(node, ctx, entry, policy, parameters)
        FlowWalker(domain, entry.pruned if entry is not None else ()).run(node)
        result = DatadepResult(policy.events, domain.arguments)
        if run is not None and run.cycles == cycles:
            run.results[(ctx.policy, id(node))] = (node, result)
        return result


DataDependence.requires = (DataDependence,)

"""DYN113: comprehensions that TorchDynamo compiles as frames of their own.

On Python 3.11 a list, set or dict comprehension, and a generator expression, is a function of its own (PEP 709
inlines the first three from 3.12 on): the enclosing function evaluates the first `for`'s iterable, takes its
iterator and calls the comprehension's code with it. When Dynamo traces the enclosing function it inlines that call.
When it has given the enclosing function up to eager (a graph break inside one of its loops, where it cannot
resume: "graph break in loop"), the function runs in Python and Dynamo's frame hook sees each comprehension's frame
as a new frame to compile (torch 2.13, `torch/_dynamo/convert_frame.py`). A generator expression's frame is
refused before tracing ("Attempt to trace generator", counted but not logged as a graph break, and it runs in Python
as it would have): nothing to report. A list, set or dict comprehension's frame:

- is compiled only if `has_tensor_in_frame` holds: its code names a global bound to `torch`
  or a `torch.*` module, or one of its locals (the free variables it reads from the enclosing function; the
  iterator argument never counts) is a tensor, an nn.Module, or a list, tuple or dict holding one. Its one argument
  is the iterator of the first iterable, which Dynamo wraps as an input: a `range` or tuple iterator (also a
  tensor's rows and a `torch.Size`) it steps, but not a list, set or dict iterator nor `enumerate`, `zip`, `map`,
  `filter`, `reversed` of a list: `next()` on it is "Missing tp_iternext" (gb4347,
  `torch/_dynamo/variables/base.py: tp_iternext_impl`), and the comprehension runs in Python.

With `fullgraph=True` the first break raises, so no function is given up to eager and none of this happens.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

import libcst as cst

from jitlint.facts.datadep import DataDependence
from jitlint.facts.syntax import assigned_names, target_names
from jitlint.facts.torch_api import TENSOR_CLASSES
from jitlint.rules.base import RuleContext
from jitlint.targets.compile.rules import CompileRule, LoopBodies

# Comprehensions are frames of their own up to Python 3.11 (PEP 709 inlines list, set and dict comprehensions in 3.12;
# generator expressions stay frames). jitlint reads the interpreter it runs on as the project's.
_OWN_FRAMES = sys.version_info < (3, 12)

# The `torch` submodules code binds to a global name (`import torch.nn.functional as F`, `from torch import nn`):
# a name of one of them in a comprehension makes Dynamo compile its frame. Qualified as `ImportTable.qualify` does.
TORCH_MODULES = frozenset({
    "torch", "torch.nn", "torch.nn.functional", "torch.nn.init", "torch.nn.utils", "torch.nn.parallel", "torch.fft",
    "torch.linalg", "torch.special", "torch.distributions", "torch.autograd", "torch.cuda", "torch.distributed",
    "torch.jit", "torch.utils", "torch.utils.checkpoint", "torch.sparse", "torch.backends", "torch.fx",
    "torch.export", "torch.compiler", "torch.amp", "torch.testing", "torch.onnx", "torch.overrides", "torch.ao",
})
# Builtins whose result Dynamo cannot step as a frame's input iterator (always, whatever they are given).
_LIST_ITERATORS = frozenset({"builtins.enumerate", "builtins.zip", "builtins.map", "builtins.filter",
                             "builtins.sorted", "builtins.list", "builtins.set", "builtins.dict", "builtins.frozenset"})
_VIEW_METHODS = frozenset({"items", "keys", "values"})
_LIST_ANNOTATIONS = frozenset({"builtins.list", "typing.List", "builtins.dict", "typing.Dict", "builtins.set",
                               "typing.Set", "collections.OrderedDict", "typing.OrderedDict"})
_FRAMES = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp)


@dataclass(frozen=True)
class OwnFrame:
    """A comprehension of a function Dynamo gives up to eager, whose own frame breaks."""

    node: cst.BaseExpression
    iterator: str  # what the first `for` iterates, as the message names it ("`enumerate(...)`")
    cause: cst.CSTNode  # the break inside a loop that makes Dynamo give the function up


def _comprehensions(function: cst.FunctionDef) -> list[cst.BaseExpression]:
    """The comprehensions the function's own frame runs (not those nested in another comprehension, a lambda or a
    nested function: those run inside that frame)."""
    found: list[cst.BaseExpression] = []

    class Collect(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)) and node is not function:
                return False
            if isinstance(node, _FRAMES):
                found.append(node)
                node.for_in.iter.visit(self)  # evaluated by the enclosing frame
                return False
            return True

    function.body.visit(Collect())
    return found


def _frame_reads(comprehension: cst.BaseExpression) -> set[str]:
    """The names the comprehension's own code reads (its first iterable is evaluated outside it; a nested
    comprehension's code is its own, but its first iterable is evaluated here)."""
    names: set[str] = set()

    class Collect(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, cst.Lambda):
                return False
            if isinstance(node, _FRAMES) and node is not comprehension:
                node.for_in.iter.visit(self)
                return False
            if isinstance(node, cst.Attribute):
                node.value.visit(self)
                return False
            if isinstance(node, cst.Name):
                names.add(node.value)
            return True

    parts: list[cst.CSTNode] = []
    if isinstance(comprehension, cst.DictComp):
        parts += [comprehension.key, comprehension.value]
    else:
        parts.append(comprehension.elt)
    loop: cst.CompFor | None = comprehension.for_in
    first = True
    while loop is not None:
        if not first:
            parts.append(loop.iter)
        parts += [condition.search for condition in loop.ifs]
        first = False
        loop = loop.inner_for_in
    for part in parts:
        part.visit(Collect())
    bound: set[str] = set()
    loop = comprehension.for_in
    while loop is not None:
        bound |= target_names(loop.target)
        loop = loop.inner_for_in
    return names - bound


def _annotation_names(annotation: cst.Annotation | None, ctx: RuleContext) -> set[str]:
    if annotation is None:
        return set()
    found: set[str] = set()

    class Collect(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            found.add(ctx.qualify(node) or node.value)

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            found.add(ctx.qualify(node) or "")
            return False

    annotation.annotation.visit(Collect())
    return found


class _Frame:
    """What one function's comprehensions see: its parameters and locals, and the file's torch modules."""

    def __init__(self, function: cst.FunctionDef, ctx: RuleContext) -> None:
        self.ctx = ctx
        params = function.params
        self.parameters = {param.name.value: param for param in (*params.posonly_params, *params.params,
                                                                 *params.kwonly_params)}
        self.locals = set(self.parameters) | assigned_names(function)
        info = ctx.function.info if ctx.function is not None else None
        self.module_self = None
        if info is not None and info.cls is not None and info.bound_first_param == "instance" and self.parameters:
            if ctx.project.is_module_class(info.cls):
                self.module_self = next(iter(self.parameters))
        self.assignments: dict[str, list[cst.BaseExpression]] = {}

        class Collect(cst.CSTVisitor):
            def __init__(self, into: dict) -> None:
                self.into = into

            def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
                return node is function

            def visit_Lambda(self, node: cst.Lambda) -> bool:
                return False

            def visit_Assign(self, node: cst.Assign) -> None:
                for target in node.targets:
                    if isinstance(target.target, cst.Name):
                        self.into.setdefault(target.target.value, []).append(node.value)

            def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
                if isinstance(node.target, cst.Name) and node.value is not None:
                    self.into.setdefault(node.target.value, []).append(node.value)

            def visit_AugAssign(self, node: cst.AugAssign) -> None:
                if isinstance(node.target, cst.Name):
                    self.into.setdefault(node.target.value, []).append(node.value)

        function.body.visit(Collect(self.assignments))

    def compiled(self, comprehension: cst.BaseExpression) -> bool:
        """Dynamo compiles the comprehension's frame (`has_tensor_in_frame`)."""
        for name in _frame_reads(comprehension):
            if name in self.locals:
                if name == self.module_self or self._tensor_parameter(name):
                    return True
            elif self.ctx.module.imports.aliases.get(name) in TORCH_MODULES:
                return True
        return False

    def _tensor_parameter(self, name: str) -> bool:
        param = self.parameters.get(name)
        if param is None or name in self.assignments:
            return False
        return bool(_annotation_names(param.annotation, self.ctx) & (TENSOR_CLASSES | {"torch.nn.Module"}))

    def unsteppable(self, iterable: cst.BaseExpression, depth: int = 0) -> bool:
        """The iterator of `iterable` is one Dynamo cannot step as a frame input (a list, set or dict iterator,
        `enumerate`, `zip`, `map`, `filter`, `reversed` of a list); False when not known."""
        if depth > 4:
            return False
        if isinstance(iterable, (cst.List, cst.Set, cst.Dict, cst.ListComp, cst.SetComp, cst.DictComp)):
            return True
        if isinstance(iterable, cst.Call):
            qualified = self.ctx.qualify(iterable.func) or ""
            if qualified in _LIST_ITERATORS:
                return True
            if qualified in ("builtins.reversed", "builtins.iter") and iterable.args:
                inner = iterable.args[0].value
                if qualified == "builtins.reversed" and isinstance(inner, cst.Tuple):
                    return True
                return self.unsteppable(inner, depth + 1)
            if isinstance(iterable.func, cst.Attribute) and iterable.func.attr.value in _VIEW_METHODS \
                    and not iterable.args:
                return True
            return False
        if isinstance(iterable, cst.Name):
            name = iterable.value
            values = self.assignments.get(name)
            if values:
                return all(self.unsteppable(value, depth + 1) for value in values) \
                    and name not in self.parameters
            param = self.parameters.get(name)
            if param is not None and param.annotation is not None:
                annotation = param.annotation.annotation
                head = annotation.value if isinstance(annotation, cst.Subscript) else annotation
                return (self.ctx.qualify(head) or "") in _LIST_ANNOTATIONS
        return False


def own_frames(function: cst.FunctionDef, ctx: RuleContext) -> list[OwnFrame]:
    """The comprehensions of `function` whose frames break when Dynamo has given the function up to eager."""
    if not _OWN_FRAMES or ctx.settings.fullgraph:
        return []
    comprehensions = _comprehensions(function)
    if not comprehensions:
        return []
    loops = ctx.fact(LoopBodies, function)
    cause = next((event.node for event in ctx.fact(DataDependence, function).events
                  if event.eager or id(event.node) in loops), None)
    if cause is None:
        return []
    frame = _Frame(function, ctx)
    found = []
    for comprehension in comprehensions:
        iterable = comprehension.for_in.iter
        described = f"`{ctx.code(iterable)}`" if len(ctx.code(iterable)) <= 40 else "its first iterable"
        if isinstance(comprehension, _COMPREHENSIONS) and frame.compiled(comprehension) and frame.unsteppable(iterable):
            found.append(OwnFrame(comprehension, described, cause))
    return found


class ComprehensionFrame(CompileRule):
    code = "DYN113"
    name = "comprehension-frame"
    severity = "warning"
    summary = ("a comprehension naming torch over a list, dict, `enumerate`, `zip`, ... in a function Dynamo gives up "
               "to eager (Python 3.11: compiled as a frame of its own, which breaks)")
    message = ("a comprehension in a function Dynamo runs eagerly: compiled as a frame of its own, it breaks the "
               "graph")
    facts = (DataDependence,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        if ctx.function is None or ctx.function.info.node is not node:
            return
        for found in own_frames(node, ctx):
            line = ctx.code(found.cause).splitlines()[0] if ctx.code(found.cause) else ""
            given_up = (f"Dynamo gives this function up to eager (a graph break inside a loop, at `{line[:50]}`), so "
                        "on Python 3.11 it compiles this comprehension as a frame of its own")
            ctx.report(found.node, (
                f"comprehension over {found.iterator}: {given_up}, with the iterator as its input, and Dynamo cannot "
                "call `next()` on it (\"Missing tp_iternext\"): one more graph break, the comprehension runs in "
                "Python; remove the break in the loop, or iterate a tuple or a `range` (`tuple(...)`), which Dynamo "
                "steps"))

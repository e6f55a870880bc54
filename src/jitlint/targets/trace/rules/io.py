"""TRC101-TRC104, TRC210, TRC211: the inputs and outputs of the traced module. `torch.jit.trace` checks them only
for the module it is given, so these rules judge the forward of the project's top-level module classes (those no
other module class of the project builds as a submodule): what it returns (a dict with `strict=True`, `None` or a
Python number, nothing at all), what it takes (a Python `int`/`float`/`str`/`bool`, arguments with defaults that
the example may omit, lists whose length is frozen), and outputs whose Python type changes (verified on torch 2.13).
None of the errors names a line of the model: these findings are the only pointer."""

from __future__ import annotations

import libcst as cst

from jitlint.facts import RunFact, run_fact
from jitlint.facts.datadep import DataDependence
from jitlint.facts.syntax import returns_in
from jitlint.project import ClassInfo, ProjectIndex
from jitlint.rules.base import RuleContext
from jitlint.targets.trace.datadep import Returned
from jitlint.targets.trace.rules import TraceRule
from jitlint.walk import walk

_DICT_BASES = frozenset({"builtins.dict", "collections.OrderedDict", "typing.OrderedDict", "typing.Dict"})
_NAMED_TUPLE = frozenset({"typing.NamedTuple", "collections.namedtuple"})
_PYTHON_SCALARS = frozenset({"builtins.int", "builtins.float", "builtins.str", "builtins.bool", "builtins.complex"})


class SubmoduleClasses(RunFact):
    """The project module classes that another module class of the project builds (in any of its methods): their
    forward is a submodule's, not the traced module's."""

    @classmethod
    def compute(cls, project: ProjectIndex, owner) -> frozenset[int]:
        built: set[int] = set()
        for module in list(project.modules.values()):  # resolving a name may load a module
            imports = module.imports
            for klass in list(module.classes.values()):
                if not project.is_module_class(klass):
                    continue

                class Calls(cst.CSTVisitor):
                    def visit_Call(self, node: cst.Call) -> None:
                        target = project.resolve_class(imports.qualify(node.func))
                        if target is not None and target is not klass and project.is_module_class(target):
                            built.add(id(target.node))

                for method in klass.methods.values():
                    walk(method.node, Calls())
        return frozenset(built)


def top_level_forward(ctx: RuleContext, node: cst.FunctionDef) -> ClassInfo | None:
    """The class whose forward `node` is, when it is a top-level module class (see the module docstring)."""
    function = ctx.function
    if function is None or function.info.node is not node or node.name.value != "forward":
        return None
    cls = function.info.cls
    if cls is None or not ctx.project.is_module_class(cls):
        return None
    if id(cls.node) in run_fact(ctx.project, SubmoduleClasses, ctx.project):
        return None
    return cls


def _elements(value: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(value, (cst.Tuple, cst.List)):
        return [element.value for element in value.elements]
    return [value]


def _class_bases(ctx: RuleContext, call: cst.BaseExpression) -> set[str]:
    """The qualified names a called class derives from (`Out(...)` with `class Out(OrderedDict)`), through project
    classes; {the name itself} for a class outside the project."""
    if not isinstance(call, cst.Call):
        return set()
    qualified = ctx.qualify(call.func) or ""
    cls = ctx.project.resolve_class(qualified)
    if cls is None:
        return {qualified}
    names = set()
    for klass in ctx.project.mro(cls):
        names.update(name for name in klass.base_names if name)
    return names


def _decorator(decorator: cst.Decorator) -> cst.BaseExpression:
    expression = decorator.decorator
    return expression.func if isinstance(expression, cst.Call) else expression


def _is_dict(ctx: RuleContext, value: cst.BaseExpression) -> str | None:
    """"dict" for a dict display or `dict(...)`/`OrderedDict(...)`, else None. An instance of a dict subclass is
    left alone: whether it traces depends on torch's pytree registry (transformers' outputs trace with
    `strict=False`, a plain subclass does not) and on decorators that turn it into a tuple."""
    if isinstance(value, (cst.Dict, cst.DictComp)):
        return "dict"
    if isinstance(value, cst.Call) and (ctx.qualify(value.func) or "") in _DICT_BASES:
        return "dict"
    return None


class DictOutput(TraceRule):
    code = "TRC101"
    name = "dict-output"
    severity = "error"
    summary = "the traced module's forward returns a dict (or a dict subclass) on every path, with `strict=True`"
    message = "a dict output: torch.jit.trace with `strict=True` (the default) rejects it"

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        if not ctx.settings.strict or top_level_forward(ctx, node) is None:
            return
        if any(ctx.project.resolve_function(ctx.qualify(_decorator(d)) or "") is not None for d in node.decorators):
            return  # a project decorator may turn the output into a tuple (transformers' `can_return_tuple`)
        returns = [ret for ret in returns_in(node) if ret.value is not None]
        kinds = [_is_dict(ctx, ret.value) for ret in returns]
        if not returns or not all(kinds):  # another path returns tensors: the example may take it
            return
        for ret in returns:
            ctx.report(ret.value, "the traced module returns a dict: torch.jit.trace with `strict=True` (the default) "
                                  "rejects it (\"Encountering a dict at the output of the tracer might cause the trace "
                                  "to be incorrect\"), naming no line; return a tuple of tensors, or trace with "
                                  "`strict=False` if the keys never change")


class NonTensorOutput(TraceRule):
    code = "TRC102"
    name = "non-tensor-output"
    severity = "error"
    summary = "the traced module returns `None`, a Python number or a string (alone or in a tuple)"
    message = "a non-tensor output: torch.jit.trace rejects it"
    facts = (DataDependence,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        if top_level_forward(ctx, node) is None:
            return
        if any(ctx.project.resolve_function(ctx.qualify(_decorator(d)) or "") is not None for d in node.decorators):
            return  # a project decorator may turn the output into something else
        kinds = {id(event.node): event.kinds for event in ctx.fact(DataDependence, node).events
                 if isinstance(event, Returned)}
        for ret in returns_in(node):
            if ret.value is None:
                continue
            elements = _elements(ret.value)
            for index, element in enumerate(elements):
                what = self._non_tensor(element, kinds.get(id(ret), ())[index:index + 1], ctx)
                if what is not None and (len(elements) > 1 or what != "`None`"):
                    ctx.report(element, f"the traced module returns {what}: torch.jit.trace rejects it (\"Only "
                                        "tensors, lists, tuples of tensors, or dictionary of tensors can be output from "
                                        "traced functions\"), naming no line; return tensors only (drop it, or keep a "
                                        "number as a tensor)")

    def _non_tensor(self, element: cst.BaseExpression, kind: tuple, ctx: RuleContext) -> str | None:
        if isinstance(element, cst.Name) and element.value == "None":
            return "`None`"
        if isinstance(element, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)):
            return "a string"
        if isinstance(element, (cst.Integer, cst.Float)):
            return "a Python number"
        if isinstance(element, cst.Call) and _unregistered_dict_subclass(ctx, element):
            return f"an instance of a dict subclass (`{ctx.code(element.func)}`) torch's pytree does not know"
        if isinstance(element, cst.Call):
            func = element.func
            if isinstance(func, cst.Attribute) and func.attr.value in ("item", "tolist") and kind == ("data",):
                return f"`.{func.attr.value}()` (a Python value)"
            if (ctx.qualify(func) or "") in _PYTHON_SCALARS and kind in (("data",), ("baked",)):
                return "a Python number"
        return None


class NoReturnValue(TraceRule):
    code = "TRC103"
    name = "no-return-value"
    severity = "error"
    summary = "the traced module's forward returns nothing"
    message = "forward returns nothing: torch.jit.trace rejects it"

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        if top_level_forward(ctx, node) is None:
            return
        if any(ret.value is not None and not (isinstance(ret.value, cst.Name) and ret.value.value == "None")
               for ret in returns_in(node)):
            return
        if _raises_only(node) or any(ctx.qualify(_decorator(d)) == "abc.abstractmethod" for d in node.decorators):
            return  # an abstract forward: its class is never instantiated, so never traced
        ctx.report(node.name, "forward returns nothing: torch.jit.trace rejects it (\"The traced function didn't "
                              "return any values! Side-effects are not captured in traces, so it would be a "
                              "no-op.\"), naming no line; return the tensors it computes")


def _raises_only(node: cst.FunctionDef) -> bool:
    """A body that only raises (`raise NotImplementedError`), or holds nothing but a docstring, `pass` or `...`: an
    abstract forward."""
    body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
    statements = [s for s in body if not (isinstance(s, cst.SimpleStatementLine) and all(
        isinstance(small, cst.Expr) and isinstance(small.value, (cst.SimpleString, cst.ConcatenatedString,
                                                                 cst.Ellipsis))
        or isinstance(small, cst.Pass) for small in s.body))]
    return bool(statements) and all(isinstance(s, cst.SimpleStatementLine) and any(
        isinstance(small, cst.Raise) for small in s.body) for s in statements) or not statements


def _annotation(param: cst.Param, ctx: RuleContext) -> str:
    if param.annotation is None:
        return ""
    annotation = param.annotation.annotation
    return ctx.qualify(annotation) or ""


def _forward_params(node: cst.FunctionDef) -> list[cst.Param]:
    params = node.params
    return [*params.posonly_params, *params.params, *params.kwonly_params][1:]


class NonTensorInput(TraceRule):
    code = "TRC104"
    name = "non-tensor-input"
    severity = "error"
    summary = "a forward parameter of the traced module annotated `int`, `float`, `str` or `bool`, without a default"
    message = "a Python-typed input: torch.jit.trace accepts only tensors (and containers of tensors) as inputs"

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        if top_level_forward(ctx, node) is None:
            return
        for param in _forward_params(node):
            annotation = _annotation(param, ctx)
            if param.default is None and annotation in _PYTHON_SCALARS:
                ctx.report(param, f"`{param.name.value}: {annotation[len('builtins.'):]}` must be given to "
                                  "torch.jit.trace as a Python value, which it rejects (\"Type 'Tuple[Tensor, "
                                  f"{annotation[len('builtins.'):]}]' cannot be traced\"), naming no line; make it a "
                                  "constructor argument, or pass a tensor")


class BakedDefault(TraceRule):
    code = "TRC210"
    name = "baked-default"
    severity = "warning"
    summary = ("forward parameters of the traced module with defaults (dropped from the traced signature when the "
               "example omits them) and `List[Tensor]` parameters (length frozen)")
    message = "an input the example may omit, or whose length it fixes: the traced module keeps the example's"

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        if top_level_forward(ctx, node) is None:
            return
        defaulted = [param for param in _forward_params(node) if param.default is not None]
        if defaulted:
            names = ", ".join(f"`{param.name.value}`" for param in defaulted)
            ctx.report(defaulted[0], (f"{names} {'has a default' if len(defaulted) == 1 else 'have defaults'}: an "
                                      "argument the example inputs omit is baked in at its default, and the traced "
                                      "forward no longer accepts it (\"forward() expected at most N argument(s)\" when "
                                      "passed later) (a baked default); torch gives no warning for it; pass every "
                                      "argument the model will get in the example (`example_kwarg_inputs`), or trace "
                                      "one module per set of arguments"))
        for param in _forward_params(node):
            annotation = param.annotation.annotation if param.annotation is not None else None
            outer = annotation.value if isinstance(annotation, cst.Subscript) else None
            if outer is not None and (ctx.qualify(outer) or "") in ("typing.List", "builtins.list"):
                ctx.report(param, f"`{param.name.value}` is a list of tensors: torch.jit.trace records the example's "
                                  "length, and a list of another length fails when the traced module runs (a baked "
                                  "list length); torch gives no warning for it; stack the tensors into one, or pass a "
                                  "tuple of fixed length")


def _unregistered_dict_subclass(ctx: RuleContext, call: cst.Call) -> bool:
    """`Out(...)` of a project class derived from a dict that no class of its hierarchy registers with torch's pytree
    (`register_pytree_node`): torch.jit.trace refuses it even with `strict=False` (transformers' outputs register)."""
    cls = ctx.project.resolve_class(ctx.qualify(call.func) or "")
    if cls is None:
        return False
    derives = False
    for klass in ctx.project.mro(cls):
        if "register_pytree_node" in klass.module.tree.code_for_node(klass.node):
            return False
        for name in klass.base_names:
            if name in _DICT_BASES:
                derives = True
            elif name and name not in ("builtins.object", "object") and ctx.project.resolve_class(name) is None:
                return False  # a base outside the project: it may register itself
    return derives


def _named_tuple(ctx: RuleContext, value: cst.BaseExpression) -> bool:
    if not isinstance(value, cst.Call):
        return False
    cls = ctx.project.resolve_class(ctx.qualify(value.func) or "")
    return cls is not None and bool(_class_bases(ctx, value) & _NAMED_TUPLE)


class OutputTypeChanged(TraceRule):
    code = "TRC211"
    name = "output-type-changed"
    severity = "warning"
    summary = ("the traced module returns a NamedTuple (comes back a plain tuple), a traced size (comes back a "
               "tensor), or a list (torch warns that its structure must not change)")
    message = "an output whose Python type changes under torch.jit.trace"
    facts = (DataDependence,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        if top_level_forward(ctx, node) is None:
            return
        kinds = {id(event.node): event.kinds for event in ctx.fact(DataDependence, node).events
                 if isinstance(event, Returned)}
        for ret in returns_in(node):
            value = ret.value
            if value is None:
                continue
            if _named_tuple(ctx, value):
                ctx.report(value, "a NamedTuple output comes back from the traced module as a plain tuple: callers "
                                  "that read its fields (`out.logits`) fail; torch gives no warning for it; read the "
                                  "fields by position, or rebuild the NamedTuple around the traced module")
                continue
            if isinstance(value, cst.List) and ctx.settings.strict:
                ctx.report(value, "a list output: torch.jit.trace warns (\"Encountering a list at the output of the "
                                  "tracer might cause the trace to be incorrect\") and records the example's length; "
                                  "return a tuple")
                continue
            for element, kind in zip(_elements(value), kinds.get(id(ret), ())):
                if kind == "size":
                    ctx.report(element, "a traced size returned by the traced module comes back as a 0-dim tensor, "
                                        "not an int (the value is right); torch gives no warning for it; callers that "
                                        "need an int convert it (`int(out)`)")

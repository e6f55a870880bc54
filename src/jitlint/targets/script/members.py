"""What the script rules know about the members of the classes torch compiles: the module classes a method is
compiled for, the attribute a `self.<name>` names, the names a class's code may set, where a method resolves, and
what makes a class's methods uncompilable. Shared by the rules of several families (attributes, callables,
conditional attributes, whole-class checks); no rule's message or fix lives here."""

from __future__ import annotations

import libcst as cst

from jitlint.facts import RunFact, run_fact
from jitlint.facts.mro import linearization
from jitlint.facts.syntax import calls_in
from jitlint.facts.torch_api import NN_MODULE_NAMES
from jitlint.literals import UNKNOWN, literal_value
from jitlint.names import first_param_name
from jitlint.project import ClassInfo, decorator_names
from jitlint.rules.base import RuleContext
from jitlint.walk import walk


def module_owners(ctx: RuleContext) -> list[ClassInfo]:
    return [owner for owner in (ctx.function.owners if ctx.function else []) if ctx.project.is_module_class(owner)]


def self_attribute_name(node: cst.BaseExpression, ctx: RuleContext) -> str | None:
    """`name` when node is `self.<name>` in a method of a module class."""
    function = ctx.function
    if function is None or not isinstance(node, cst.Attribute) or not isinstance(node.value, cst.Name):
        return None
    if node.value.value != first_param_name(function.info.node) or function.info.bound_first_param != "instance":
        return None
    return node.attr.value


def plain_class_body(cls: ClassInfo) -> bool:
    """A class body of methods and simple statements only (an attribute defined under an `if` or a `try` in the
    class body, or by a nested class, is not indexed)."""
    body = cls.node.body.body if isinstance(cls.node.body, cst.IndentedBlock) else ()
    return all(isinstance(statement, (cst.FunctionDef, cst.SimpleStatementLine)) for statement in body)


class _HasattrTest(cst.CSTVisitor):
    """Whether an expression calls `hasattr(..., "name")`."""

    def __init__(self, name: str, ctx: RuleContext) -> None:
        self.name = name
        self.ctx = ctx
        self.found = False

    def visit_Call(self, node: cst.Call) -> None:
        if (self.ctx.qualify(node.func) == "builtins.hasattr" and len(node.args) == 2
                and isinstance(node.args[1].value, cst.SimpleString)
                and node.args[1].value.evaluated_value == self.name):
            self.found = True


def guarded_by_hasattr(name: str, ctx: RuleContext) -> bool:
    """Inside an `if`, `while`, if-expression or boolean operation whose test asks `hasattr(..., "name")`."""
    find = _HasattrTest(name, ctx)
    for ancestor in ctx.ancestors:
        test = getattr(ancestor, "test", None) if isinstance(ancestor, (cst.If, cst.While, cst.IfExp)) else None
        if isinstance(ancestor, cst.BooleanOperation):
            test = ancestor.left
        if test is not None:
            walk(test, find)
            if find.found:
                return True
    return False


class NamesSetInClass(RunFact):
    """Every name a class's code may set as an attribute, found wider than the project index does: `self.<name>`
    anywhere inside an assignment, loop, `with` or walrus target (tuple unpacking `self.a, self.b = ...` too), and
    every string literal of the class (`setattr(self, "name", ...)`, `register_buffer("name", ...)`)."""

    @classmethod
    def compute(cls, project, owner: ClassInfo) -> frozenset[str]:
        targets = _SetTargets()
        walk(owner.node, targets)
        return frozenset(targets.names)


def names_set_in_class(cls: ClassInfo, project) -> frozenset[str]:
    return run_fact(project, NamesSetInClass, cls)


class _SetTargets(cst.CSTVisitor):
    """For `names_set_in_class`: the attribute names in targets, and every string literal."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.attributes = _AttributeNames(self.names)

    def _collect(self, target: cst.CSTNode) -> None:
        walk(target, self.attributes)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._collect(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._collect(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._collect(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._collect(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._collect(node.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._collect(node.target)

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        value = node.evaluated_value
        if isinstance(value, str):
            self.names.add(value)


class _AttributeNames(cst.CSTVisitor):
    def __init__(self, names: set[str]) -> None:
        self.names = names

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.names.add(node.attr.value)


# What torch 2.13 says when compiled code uses `self.<method>` as a value, by how the method is defined (each
# checked with torch 2.13: tests/test_method_value.py). Methods with any other decorator are left alone.
METHOD_VALUE_ERRORS = {
    frozenset(): "method cannot be used as a value",
    frozenset({"torch.jit.export"}): "method cannot be used as a value",
    frozenset({"builtins.classmethod"}): "method cannot be used as a value",
    frozenset({"builtins.staticmethod"}): "function cannot be used as a value",
    frozenset({"torch.jit.ignore"}): "python value of type 'function' cannot be used as a value",
    frozenset({"torch.jit.unused"}): "python value of type 'function' cannot be used as a value",
}


def resolved_method(name: str, owner, ctx: RuleContext):
    """The method `self.<name>` is on instances of the module class `owner`: its definition in the class body of
    the first class of the C3 MRO that defines the name, when nothing can make it something else (an attribute
    of that name set anywhere in the classes, a class-level value or annotation (a dataclass field), `__getattr__`,
    a class body with conditional definitions, a torch base other than `nn.Module` before it, an unknown base). None
    otherwise. A decorated class is taken as written (a registry's decorator returns the class), as the capture map
    takes its `forward`."""
    order = linearization(ctx.project, owner)
    if order is None:
        return None
    classes = [entry for entry in order if not isinstance(entry, str)]
    if any(cls.dynamic_attributes or not plain_class_body(cls)
           or {"__getattr__", "__getattribute__", "__setattr__"} & set(cls.methods)
           or name in names_set_in_class(cls, ctx.project) for cls in classes):
        return None
    if ctx.project.attributes(owner).get(name) is not None:
        return None
    for entry in order:
        if isinstance(entry, str):
            if entry in ("torch.nn.Module", "torch.nn.modules.module.Module") and name not in NN_MODULE_NAMES:
                continue
            return None  # a torch class may define it (nn.Linear's attributes, nn.Module's own methods)
        if name in entry.own_attributes:
            return None
        if name in entry.methods:
            return entry.methods[name]
    return None


# What `dataclass(...)` synthesizes, by the keyword that turns it off (and its default).
STDLIB_DATACLASS = "dataclasses.dataclass"
# Decorators that make a class a dataclass (its methods generated, so torch cannot read their source).
DATACLASS_DECORATORS = frozenset({"dataclasses.dataclass", "pydantic.dataclasses.dataclass", "attr.s", "attrs.define"})
_SYNTHESIZED = (("init", True, "__init__"), ("repr", True, "__repr__"), ("eq", True, "__eq__"))


def _keyword_values(call: cst.Call | None) -> dict[str, object] | None:
    """The literal keyword arguments of a `dataclass(...)` call (None if one is not a literal)."""
    values: dict[str, object] = {}
    if call is None:
        return values
    for arg in call.args:
        if arg.keyword is None:
            continue
        value = literal_value(arg.value)
        if value is UNKNOWN:
            return None
        values[arg.keyword.value] = value
    return values


def _synthesizes(cls: ClassInfo, keywords: dict[str, object] | None) -> str | None:
    """The method `dataclass(**keywords)` synthesizes (without source) on `cls`, if any."""
    if keywords is None:
        return None
    if keywords.get("order") is True:
        return "__lt__"
    for keyword, default, method in _SYNTHESIZED:
        if keywords.get(keyword, default) is not False and method not in cls.methods:
            return method
    return None


def dataclass_method(ctx: RuleContext, cls: ClassInfo) -> str | None:
    """A method the standard library's `dataclass` gives `cls` from generated source (so `inspect.getsource`
    fails on it): `cls` is decorated `@dataclass`, or a project base's `__init_subclass__` applies
    `dataclass(cls, ...)` to every subclass."""
    imports = cls.module.imports
    for decorator in cls.node.decorators:
        expression = decorator.decorator
        call = expression if isinstance(expression, cst.Call) else None
        if imports.qualify(call.func if call is not None else expression) == STDLIB_DATACLASS:
            return _synthesizes(cls, _keyword_values(call))
    for base in ctx.project.mro(cls)[1:]:
        hook = base.methods.get("__init_subclass__")
        if hook is None:
            continue
        param = first_param_name(hook.node)
        for call in calls_in(hook.node):
            if base.module.imports.qualify(call.func) != STDLIB_DATACLASS or not call.args:
                continue
            first = call.args[0]
            if first.keyword is None and isinstance(first.value, cst.Name) and first.value.value == param:
                return _synthesizes(cls, _keyword_values(call))
    return None


def annotation_uncompilable_reason(cls: ClassInfo, ctx: RuleContext) -> str | None:
    """Why torch cannot compile a project class a module annotation names, when that is certain (verified on
    2.13). Torch compiles the methods of the class's own body (not its bases'), after reading the source of each: a
    standard-library dataclass's generated methods have none, and a method taking `*args`/`**kwargs` fails."""
    generated = dataclass_method(ctx, cls)
    if generated is not None:
        return f"`{cls.name}` is a dataclass (torch cannot get the source of its generated `{generated}`)"
    if decorator_names(cls.node, cls.module.imports) & (DATACLASS_DECORATORS - {STDLIB_DATACLASS}):
        return f"`{cls.name}` is a dataclass (torch cannot get the source of its generated `__init__`)"
    for name, method in cls.methods.items():
        if method.decorators & {"builtins.staticmethod", "torch.jit._drop", "torch.jit.unused", "torch.jit.ignore"}:
            continue
        params = method.node.params
        for star in (params.star_arg, params.star_kwarg):
            if isinstance(star, cst.Param):
                prefix = "*" if star is params.star_arg else "**"
                return f"`{cls.name}.{name}` takes `{prefix}{star.name.value}`"
    return None


def is_load(ctx: RuleContext) -> bool:
    """Whether the node being visited is read (not assigned, deleted or augmented)."""
    parent = ctx.parent
    return not isinstance(parent, (cst.AssignTarget, cst.Del)) and not (
        isinstance(parent, (cst.AugAssign, cst.AnnAssign)) and parent.target is ctx.ancestors[-1]
    )


def self_attribute_load(node: cst.Attribute, ctx: RuleContext):
    """(name, info) for a read of `self.<name>` in compiled code (not an assignment target)."""
    found = ctx.self_attribute(node)
    if found is None or not is_load(ctx):
        return None
    return found

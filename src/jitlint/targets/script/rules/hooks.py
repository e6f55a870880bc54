"""JIT624: forward hooks and pre-hooks whose signatures do not fit the module they are registered on. When
`torch.jit.script` scripts a module with hooks, it compiles each hook against the module's `forward`
(`torch/jit/_recursive.py` and the C++ hook checks): the `input` argument must be a `Tuple` of `forward`'s parameter
types, and a hook's name must not be one of the module's methods.

Only hooks whose `input` parameter is annotated are checked (an annotation says the hook is written for
TorchScript; eager hooks are never compiled), registered with `<module>.register_forward_hook(hook)` /
`register_forward_pre_hook(hook)` where `<module>` is `self` in a module's method, a name assigned a project
module class's instance in the same function, or an attribute of one that `__init__` assigns an instance.
"""

from __future__ import annotations

import libcst as cst

from jitlint.project import ClassInfo, FunctionInfo
from jitlint.rules.base import RuleContext
from jitlint.targets.script.rules import ScriptRule

_REGISTER = {"register_forward_hook": "forward hook", "register_forward_pre_hook": "forward pre-hook"}
_SIMPLE = {"str", "int", "float", "bool", "None", "Tensor"}
_TUPLE = {"typing.Tuple", "builtins.tuple"}


def _params(function: cst.FunctionDef) -> list[cst.Param]:
    return [*function.params.posonly_params, *function.params.params]


class HookSignature(ScriptRule):
    code = "JIT624"
    name = "hook-signature"
    severity = "error"
    summary = (
        "a TorchScript-annotated forward hook or pre-hook whose `input` is not a `Tuple` of `forward`'s parameter "
        "types, or whose name is a method of the module"
    )
    message = "forward hook whose signature does not fit the module's `forward`"
    scope = "anywhere"
    outside_handlers = frozenset({"Call"})
    text_hints = ("register_forward_hook", "register_forward_pre_hook")

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        func = node.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in _REGISTER or len(node.args) < 1:
            return
        argument = node.args[0]
        if argument.keyword is not None:
            return
        enclosing = ctx.enclosing(cst.FunctionDef)
        cls = _receiver_class(func.value, enclosing, ctx)
        if cls is None:
            return
        kind = _REGISTER[func.attr.value]
        if isinstance(argument.value, cst.Call):
            self._reused(node, argument.value, enclosing, kind, ctx)
            return
        found = _hook_function(argument.value, enclosing, ctx)
        if found is None:
            return
        hook, imports = found
        params = _params(hook)
        # torch compiles every hook of a module it scripts; a hook of a module jitlint does not see scripted is
        # checked only when its `input` is annotated (written for TorchScript)
        every_instance = (isinstance(func.value, cst.Name) and func.value.value == "self" and enclosing is not None
                          and enclosing.name.value == "__init__")
        if not (every_instance and _scripted(cls, ctx)) and (len(params) < 2 or params[1].annotation is None):
            return
        hook_name = hook.name.value
        if any(hook_name in c.methods for c in ctx.project.mro(cls)):
            ctx.report(argument.value, f"the {kind} `{hook_name}` has the name of a method of `{cls.name}` ('Can't "
                                       f"define hook: {hook_name} ... because a method or hook with that name "
                                       f"already exists'); rename the hook")
            return
        previous = _previous_hook(node, enclosing, ctx) if kind == "forward hook" else None
        problem = _schema_problem(hook, imports, kind, cls, ctx, previous)
        if problem is not None:
            ctx.report(argument.value, f"the {kind} `{hook_name}` does not fit `{cls.name}.forward`: {problem}")

    @staticmethod
    def _reused(node: cst.Call, factory: cst.Call, enclosing: cst.FunctionDef | None, kind: str,
                ctx: RuleContext) -> None:
        """`self.register_forward_hook(make_hook(2))` after `make_hook(1)`: two closures of one name, which torch
        cannot tell apart ("has at least two different python definitions")."""
        if enclosing is None:
            return
        method = _REGISTER_OF[kind]
        calls: list[cst.Call] = []

        class Registrations(cst.CSTVisitor):
            def visit_Call(self, call: cst.Call) -> None:
                if not isinstance(call.func, cst.Attribute) or call.func.attr.value != method or not call.args:
                    return
                if isinstance(call.args[0].value, cst.Call) and call.args[0].value.func.deep_equals(
                        factory.func) and call.func.value.deep_equals(node.func.value):
                    calls.append(call)

        enclosing.visit(Registrations())
        if not calls or calls[0] is node or node not in calls:
            return  # the first closure of its name is fine
        inner = _factory_hook_name(factory, ctx)
        if inner is None:
            return
        label = "Hook" if kind == "forward hook" else "Pre-hook"
        ctx.report(factory, f"this {kind} is another closure `{inner}` of `{ctx.code(factory.func)}`, and torch names "
                            f"each compiled hook by its function's name (torch: \"{label} '{inner}' ... has at least "
                            "two different python definitions\"); give each hook its own name")


_REGISTER_OF = {label: method for method, label in _REGISTER.items()}


def _scripted(cls: ClassInfo, ctx: RuleContext) -> bool:
    """Whether jitlint sees the module class scripted (its `forward` compiled)."""
    forward = ctx.project.find_method(cls, "forward")
    return forward is not None and ctx.captured.get(forward.node) is not None


def _hook_function(node: cst.BaseExpression, enclosing: cst.FunctionDef | None,
                   ctx: RuleContext) -> tuple[cst.FunctionDef, object] | None:
    """The `def` a hook argument names (a function, or `Cls.method`), and the imports its annotations use."""
    if isinstance(node, cst.Name):
        found = _find_function(node.value, enclosing, ctx)
        if found is None:
            return None
        resolved = ctx.project.resolve(ctx.module.imports.qualify(node))
        imports = resolved.module.imports if isinstance(resolved, FunctionInfo) else ctx.module.imports
        return found, imports
    resolved = ctx.project.resolve(ctx.qualify(node)) if isinstance(node, cst.Attribute) else None
    if isinstance(resolved, FunctionInfo):
        return resolved.node, resolved.module.imports
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name):
        cls = ctx.project.resolve_class(ctx.qualify(node.value))
        method = ctx.project.find_method(cls, node.attr.value) if cls is not None else None
        if method is not None:
            return method.node, method.module.imports
    return None


def _factory_hook_name(factory: cst.Call, ctx: RuleContext) -> str | None:
    """The name of the `def` a hook factory returns (`def make_hook(k): def hook(...): ...; return hook`)."""
    resolved = ctx.project.resolve(ctx.qualify(factory.func))
    if not isinstance(resolved, FunctionInfo) or not isinstance(resolved.node.body, cst.IndentedBlock):
        return None
    inner = {statement.name.value for statement in resolved.node.body.body if isinstance(statement, cst.FunctionDef)}
    for statement in resolved.node.body.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Return) and isinstance(small.value, cst.Name) and small.value.value in inner:
                    return small.value.value
    return None


def _previous_hook(node: cst.Call, enclosing: cst.FunctionDef | None,
                   ctx: RuleContext) -> tuple[cst.FunctionDef, object] | None | bool:
    """The forward hook registered on the same receiver just before this one in the same function (its output is
    what this hook's output argument receives), False when this is the first one."""
    if enclosing is None:
        return None
    calls: list[cst.Call] = []

    class Registrations(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            if isinstance(call.func, cst.Attribute) and call.func.attr.value == "register_forward_hook" and (
                    call.func.value.deep_equals(node.func.value)):
                calls.append(call)

    enclosing.visit(Registrations())
    if node not in calls:
        return None
    index = calls.index(node)
    if index == 0:
        return False
    argument = calls[index - 1].args[0].value if calls[index - 1].args else None
    return _hook_function(argument, enclosing, ctx) if argument is not None else None


def _schema_problem(hook: cst.FunctionDef, imports, kind: str, cls: ClassInfo, ctx: RuleContext,
                    previous=False) -> str | None:
    """`ClassType::checkForwardPreHookSchema` / `checkForwardHookSchema`: the hook's parameters (self, the input
    tuple, and for a forward hook the output) against `forward`'s, and a pre-hook's return."""
    from jitlint.targets.script.typing.annotations import Reader, signature
    from jitlint.targets.script.typing.types import NONE, TENSOR, subtype

    project = ctx.project
    forward = project.find_method(cls, "forward")
    if forward is None:
        return None
    params = _params(hook)
    fparams = forward.node.params
    if isinstance(fparams.star_arg, cst.Param) or fparams.kwonly_params or fparams.star_kwarg is not None:
        return None
    pre = kind == "forward pre-hook"
    wanted = 2 if pre else 3
    label = "Pre-hook" if pre else "Hook"
    if len(params) != wanted or isinstance(hook.params.star_arg, cst.Param):
        return (f"it takes {len(params)} argument(s), and a {kind} takes exactly {wanted} (torch: \"{label} ... was "
                f"expected to only have exactly {wanted} inputs\")")
    reader = Reader(imports, project)
    read = (lambda param: reader.read(param.annotation.annotation) if param.annotation is not None else TENSOR)
    forward_args = [p.type for p in signature(forward.node, forward.module.imports, project, True).params]
    if any(arg is None for arg in forward_args):
        return None
    given = read(params[1])
    if given is None:
        return None
    if given.name != "Tuple":
        return (f"its `input` argument must be typed as a Tuple of `forward`'s argument types, not {given} (torch: "
                f"\"expected the input argument to be typed as a Tuple but found type: '{given}'\")")
    elements = list(given.args)
    if len(elements) != len(forward_args):
        return (f"its `input` Tuple has {len(elements)} element(s) but `forward` takes {len(forward_args)} "
                f"argument(s) ('has the wrong number of contained types for the input argument's Tuple')")
    for element, argument in zip(elements, forward_args):
        if element is not None and subtype(argument, element) is False:
            return (f"its `input` Tuple has {element} where `forward` takes {argument} ('has the wrong inner types "
                    f"for the input tuple argument')")
    if not pre:
        output = read(params[2])
        if previous is False:
            returns, what = forward_return(forward, cls, ctx), "`forward` returns"
        elif previous is None or previous[0].returns is None:
            return None
        else:
            returns = Reader(previous[1], project).read(previous[0].returns.annotation)
            what = f"the hook before it, `{previous[0].name.value}`, returns"
        if output is not None and returns is not None and subtype(returns, output) is False:
            return (f"its output argument is {output}, and {what} {returns} (torch: 'has the wrong type "
                    "for the output argument')")
        return None
    if hook.returns is None:
        return ("it has no return annotation, which a pre-hook needs (torch: 'is missing a return annotation. Return "
                "annotations are required')")
    returned = reader.read(hook.returns.annotation)
    if returned is None or returned == NONE:
        return None
    wrong = f"it returns {returned}, which `forward` cannot take (torch: \"returned the wrong type of: '{returned}'."
    if len(forward_args) == 1 and subtype(forward_args[0], returned) is True:
        if returned.name == "Tuple":
            return wrong + " When forward has a single tuple input argument, the return needs to be 'None' or a nested tuple\")"
        return None
    if returned.name != "Tuple":
        if not forward_args:
            return wrong + " Was expecting either 'None' or 'Tuple[()]' since forward had no arguments\")"
        return wrong + " Was expecting either 'None', ... or a Tuple of forward's arguments\")"
    if len(returned.args) != len(forward_args):
        return wrong + " The returned tuple contains the wrong number of contained types\")"
    for element, argument in zip(returned.args, forward_args):
        if element is not None and subtype(element, argument) is False:
            return wrong + " The returned tuple contains the wrong inner types\")"
    return None


def forward_return(forward: FunctionInfo, cls: ClassInfo, ctx: RuleContext):
    """`forward`'s return type: declared, else as the typer joins its returns."""
    from jitlint.targets.script.typing.analysis import returns_of

    return returns_of(ctx.project, ctx.captured, forward, cls, [cls])


def _find_function(name: str, enclosing: cst.FunctionDef | None, ctx: RuleContext) -> cst.FunctionDef | None:
    if enclosing is not None and isinstance(enclosing.body, cst.IndentedBlock):
        for statement in enclosing.body.body:
            if isinstance(statement, cst.FunctionDef) and statement.name.value == name:
                return statement
    resolved = ctx.project.resolve(ctx.module.imports.qualify(cst.Name(name)))
    if isinstance(resolved, FunctionInfo) and resolved.cls is None:
        return resolved.node
    return None


def _receiver_class(node: cst.BaseExpression, enclosing: cst.FunctionDef | None, ctx: RuleContext) -> ClassInfo | None:
    project = ctx.project
    if isinstance(node, cst.Name):
        if enclosing is None:
            return None
        params = _params(enclosing)
        if params and params[0].name.value == node.value and node.value == "self":
            cls = ctx.module.classes.get(_class_of(enclosing, ctx) or "")
            return cls if cls is not None and project.is_module_class(cls) else None
        constructed = None
        if isinstance(enclosing.body, cst.IndentedBlock):
            for statement in enclosing.body.body:
                if not isinstance(statement, cst.SimpleStatementLine):
                    continue
                for small in statement.body:
                    if not isinstance(small, cst.Assign) or not any(
                        isinstance(t.target, cst.Name) and t.target.value == node.value for t in small.targets
                    ):
                        continue
                    if constructed is not None or not isinstance(small.value, cst.Call):
                        return None  # assigned more than once, or not a construction
                    constructed = project.resolve_class(ctx.qualify(small.value.func))
        return constructed if constructed is not None and project.is_module_class(constructed) else None
    if isinstance(node, cst.Attribute):
        owner = _receiver_class(node.value, enclosing, ctx)
        if owner is None:
            return None
        info = project.attributes(owner).get(node.attr.value)
        if info is None or len(info.constructors) != 1:
            return None
        cls = project.resolve_class(next(iter(info.constructors)))
        return cls if cls is not None and project.is_module_class(cls) else None
    return None


def _class_of(function: cst.FunctionDef, ctx: RuleContext) -> str | None:
    cls = ctx.enclosing(cst.ClassDef)
    return cls.name.value if cls is not None else None


def _type_text(node: cst.BaseExpression, ctx: RuleContext, imports) -> str:
    qualified = imports.qualify(node) if isinstance(node, (cst.Name, cst.Attribute)) else None
    if qualified in ("torch.Tensor",):
        return "Tensor"
    if qualified and qualified.startswith("builtins."):
        return qualified[len("builtins."):]
    return "".join(ctx.module.tree.code_for_node(node).split())


def _input_problem(annotation: cst.BaseExpression, cls: ClassInfo, ctx: RuleContext) -> str | None:
    forward = ctx.project.find_method(cls, "forward")
    if forward is None:
        return None
    imports = ctx.module.imports
    outer = annotation.value if isinstance(annotation, cst.Subscript) else annotation
    if imports.qualify(outer) not in _TUPLE:
        shown = ctx.module.tree.code_for_node(annotation)
        return (f"its `input` argument must be typed as a Tuple of `forward`'s argument types, not `{shown}` "
                f"('expected the input argument to be typed as a Tuple but found type: ...')")
    if not isinstance(annotation, cst.Subscript):
        return None
    elements = [element.slice.value for element in annotation.slice if isinstance(element.slice, cst.Index)]
    if len(elements) != len(annotation.slice):
        return None
    if len(elements) == 1 and isinstance(elements[0], cst.Tuple) and not elements[0].elements:
        elements = []  # Tuple[()]
    forward_params = _params(forward.node)[1:]
    params = forward.node.params
    if isinstance(params.star_arg, cst.Param) or params.kwonly_params or params.star_kwarg is not None:
        return None
    if len(elements) != len(forward_params):
        return (f"its `input` Tuple has {len(elements)} element(s) but `forward` takes {len(forward_params)} "
                f"argument(s) ('has the wrong number of contained types for the input argument's Tuple')")
    forward_imports = forward.module.imports
    for element, param in zip(elements, forward_params):
        expected = _type_text(param.annotation.annotation, ctx, forward_imports) if param.annotation else "Tensor"
        got = _type_text(element, ctx, imports)
        if expected in _SIMPLE and got in _SIMPLE and expected != got:
            return (f"its `input` Tuple has `{got}` where `forward` takes `{expected}` ('has the wrong inner types "
                    f"for the input tuple argument')")
    return None

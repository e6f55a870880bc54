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
        if node.args[0].keyword is not None or not isinstance(node.args[0].value, cst.Name):
            return
        enclosing = ctx.enclosing(cst.FunctionDef)
        hook = _find_function(node.args[0].value.value, enclosing, ctx)
        cls = _receiver_class(func.value, enclosing, ctx)
        if hook is None or cls is None:
            return
        params = _params(hook)
        if len(params) < 2 or params[1].annotation is None:
            return
        kind = _REGISTER[func.attr.value]
        hook_name = hook.name.value
        if any(hook_name in c.methods for c in ctx.project.mro(cls)):
            ctx.report(node.args[0].value, f"the {kind} `{hook_name}` has the name of a method of `{cls.name}` ('Can't "
                                           f"define hook: {hook_name} ... because a method or hook with that name "
                                           f"already exists'); rename the hook")
            return
        problem = _input_problem(params[1].annotation.annotation, cls, ctx)
        if problem is not None:
            ctx.report(node.args[0].value, f"the {kind} `{hook_name}` does not fit `{cls.name}.forward`: {problem}")


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

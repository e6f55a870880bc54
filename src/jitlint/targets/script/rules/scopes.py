"""JIT425: names compiled code cannot resolve (TorchScript's "undefined value"), from the scope analysis of
`jitlint.targets.script.scopes`."""

from __future__ import annotations

import libcst as cst

from jitlint.rules.base import RuleContext
from jitlint.targets.script.rules import ScriptRule
from jitlint.targets.script.scopes import unresolved_reads


class UndefinedName(ScriptRule):
    code = "JIT425"
    name = "undefined-name"
    severity = "error"
    summary = (
        "a name compiled code reads that nothing binds before it: deleted with `del` (on any path), a comprehension's "
        "variable read outside it, or defined nowhere in the function, its module or builtins"
    )
    message = "undefined value: nothing binds this name before it is read here"

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        function = ctx.function
        if function is None or function.info.node is not node or not function.body_captured:
            return
        if any(isinstance(ancestor, (cst.FunctionDef, cst.Lambda)) for ancestor in ctx.ancestors[:-1]):
            return  # a closure: what it may read from the enclosing function is not modelled
        for read in unresolved_reads(node, ctx.module.tree, function.pruned, ctx.module.text):
            if read.deleted:
                message = f"undefined value `{read.name.value}`: `del` removed it on a path that reaches this read"
            else:
                message = (
                    f"undefined value `{read.name.value}`: no assignment, parameter, global, import or builtin binds "
                    "it before this read"
                )
            ctx.report(read.name, message)


_NOT_CALLABLE = {
    "torch.Tensor": "Tensor", "builtins.int": "int", "builtins.float": "float", "builtins.str": "str",
    "builtins.bool": "bool", "typing.List": "List", "typing.Dict": "Dict", "typing.Tuple": "Tuple",
    "builtins.list": "list", "builtins.dict": "dict", "builtins.tuple": "tuple",
}
_FORK = frozenset({"torch.jit.fork", "torch.jit._fork"})


class CallOfNonCallable(ScriptRule):
    code = "JIT426"
    name = "call-of-non-callable"
    severity = "error"
    summary = (
        "compiled code calls a parameter (or forks it with `torch.jit.fork`) whose TorchScript type is not callable: "
        "unannotated (so a Tensor), or annotated Tensor, a number, a str or a container"
    )
    message = "call of a parameter TorchScript types as a value, not a function"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        from jitlint.targets.script.infer import is_overload_implementation, signature_comment
        from jitlint.targets.script.scopes import bound_in

        function = ctx.function
        if function is None:
            return
        callee = node.func
        if ctx.qualify(callee) in _FORK and node.args:
            callee = node.args[0].value
        if not isinstance(callee, cst.Name):
            return
        definition = function.info.node
        params = definition.params
        param = next((p for p in (*params.posonly_params, *params.params, *params.kwonly_params)
                      if p.name.value == callee.value), None)
        if param is None or param.default is not None:
            return  # a default says another type (JIT204 covers `fn=None`)
        if function.info.bound_first_param is not None and param is (params.posonly_params or params.params or (None,))[0]:
            return
        if signature_comment(definition) is not None or is_overload_implementation(definition, ctx.module.tree):
            return  # the types are in a comment, or per overload declaration
        if callee.value in bound_in(definition.body):
            return
        if param.annotation is None:
            kind = "Tensor"
        else:
            annotation = param.annotation.annotation
            outer = annotation.value if isinstance(annotation, cst.Subscript) else annotation
            kind = _NOT_CALLABLE.get(ctx.qualify(outer) or "")
            if kind is None:
                return
        ctx.report(
            node,
            f"`{callee.value}` is a parameter of type {kind}"
            f"{' (unannotated parameters are Tensors)' if param.annotation is None else ''}, which TorchScript "
            f"cannot call ('cannot call a value of type '{kind}''); pass a submodule or call a module-level function "
            f"instead",
        )

"""JIT425: names compiled code cannot resolve (TorchScript's "undefined value"), from the scope analysis of
`jitlint.targets.script.scopes`."""

from __future__ import annotations

import libcst as cst

from jitlint.rules.base import RuleContext
from jitlint.targets.script.claims import results_for
from jitlint.targets.script.facts import ScriptTypes
from jitlint.targets.script.rules import ScriptRule, TypedRule
from jitlint.targets.script.scopes import (
    BUILTIN_NAMES, globals_through_stars, module_globals, unresolved_reads, unresolved_reads_with,
)


class UndefinedName(ScriptRule):
    code = "JIT425"
    facts = (ScriptTypes,)
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
        known = globals_through_stars(ctx.module, ctx.project.module) if ctx.module.imports.stars else None
        for read in unresolved_reads(node, ctx.module.tree, function.pruned, ctx.module.text, known):
            if read.deleted:
                message = f"undefined value `{read.name.value}`: `del` removed it on a path that reaches this read"
            else:
                message = (
                    f"undefined value `{read.name.value}`: no assignment, parameter, global, import or builtin binds "
                    "it before this read"
                )
            ctx.report(read.name, message)

        for result in results_for(self, node, ctx):  # `del` of a name only an inner block binds
            ctx.report(result.node, f"undefined value `{result.name}`: `del` finds a name only in the function's own "
                                    "block, and this one is bound only inside this loop or branch (torch: "
                                    f"\"undefined value {result.name}\"); drop the `del`, or bind the name before "
                                    "the loop or branch")


_NOT_CALLABLE = {
    "torch.Tensor": "Tensor", "builtins.int": "int", "builtins.float": "float", "builtins.str": "str",
    "builtins.bool": "bool", "typing.List": "List", "typing.Dict": "Dict", "typing.Tuple": "Tuple",
    "builtins.list": "list", "builtins.dict": "dict", "builtins.tuple": "tuple",
}
_FORK = frozenset({"torch.jit.fork", "torch.jit._fork"})


class CallOfNonCallable(TypedRule):
    code = "JIT426"
    name = "call-of-non-callable"
    severity = "error"
    summary = (
        "compiled code calls a value whose TorchScript type is not callable: a parameter (or forks it with "
        "`torch.jit.fork`) unannotated (so a Tensor), or annotated Tensor, a number, a str or a container; an "
        "attribute `__init__` sets to None"
    )
    message = "call of a value TorchScript types as a value, not a function"

    def render(self, result, ctx, function):
        return (f"`{ctx.code(result.node.func)}` is of type {result.type}, which TorchScript cannot call ('cannot "
                f"call a value of type '{result.type}''); make it a submodule (`nn.Identity()` rather than None) or "
                "call it only under a test torch can decide (`if self.gate is not None:`)"), None

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        from jitlint.targets.script.overloads import is_overload_implementation
        from jitlint.targets.script.typing.annotations import signature_comment
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


# torch's grad-mode decorators (`torch.utils._contextlib`): the function they return is what torch compiles (from
# the wrapped function's source, through `__wrapped__`), but it resolves the names with the *wrapper's* globals and
# closure: torch 2.13's `torch/utils/_contextlib.py`, and the wrapper's free variables `ctx_factory` and `func`.
_GRAD_DECORATORS = frozenset({
    f"{prefix}.{name}" for prefix in ("torch", "torch.autograd", "torch.autograd.grad_mode")
    for name in ("no_grad", "enable_grad", "inference_mode", "set_grad_enabled")
})
_CONTEXTLIB_NAMES = frozenset({
    "Any", "Callable", "F", "FuncType", "Self", "TypeVar", "_DecoratorContextManager",
    "_NoParamDecoratorContextManager", "_wrap_generator", "cast", "context_decorator", "functools", "inspect",
    "overload", "sys", "warnings", "ctx_factory", "func",
})
# `torch.autocast(...)` as a decorator (and its `torch.cuda.amp`/`torch.cpu.amp` subclasses) returns
# `autocast_decorator`'s wrapper: the names resolve in torch 2.13's `torch/amp/autocast_mode.py` and the wrapper's
# free variables `autocast_instance` and `func` (`torch` resolves there; a helper of your module does not).
_AUTOCAST_DECORATORS = frozenset({"torch.autocast", "torch.amp.autocast", "torch.amp.autocast_mode.autocast",
                                  "torch.cuda.amp.autocast", "torch.cpu.amp.autocast"})
_AUTOCAST_NAMES = frozenset({
    "Any", "HAS_NUMPY", "_UnmanagedAutocast", "_cast", "_dtype", "_enter_autocast", "_exit_autocast", "autocast",
    "autocast_decorator", "collections", "custom_bwd", "custom_fwd", "functools", "is_autocast_available", "np",
    "torch", "warnings", "autocast_instance", "func",
})


class GradDecoratorHidesGlobals(ScriptRule):
    code = "JIT235"
    name = "grad-decorator-hides-globals"
    severity = "error"
    summary = (
        "a compiled function under `@torch.no_grad()` (or `enable_grad`, `inference_mode`, `set_grad_enabled`, "
        "`torch.autocast(...)`) that reads a global of its module: torch resolves its names in torch's own module"
    )
    message = (
        "TorchScript resolves the names of a function under `@torch.no_grad()` in torch's own module, where this "
        "global is undefined; use `with torch.no_grad():` in the body instead"
    )

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        function = ctx.function
        if function is None or function.info.node is not node or not function.body_captured or not node.decorators:
            return
        if any(isinstance(ancestor, (cst.FunctionDef, cst.Lambda)) for ancestor in ctx.ancestors[:-1]):
            return
        outer = node.decorators[0].decorator  # the outermost: the object torch is given
        called = isinstance(outer, cst.Call)
        decorator = ctx.qualify(outer.func if called else outer)
        autocast = called and decorator in _AUTOCAST_DECORATORS
        if not autocast and (decorator not in _GRAD_DECORATORS or (decorator.endswith("set_grad_enabled")
                                                                    and not called)):
            return
        wrapper_names = _AUTOCAST_NAMES if autocast else _CONTEXTLIB_NAMES
        own = module_globals(ctx.module.tree, ctx.module.text)
        if own is None:
            return
        reads = unresolved_reads_with(node, BUILTIN_NAMES, function.pruned, ctx.module.text)
        if autocast:  # `torch/amp/autocast_mode.py` imports torch: torch resolves it and goes on to the next name
            reads = [read for read in reads if read.name.value != "torch"]
        if not reads or reads[0].deleted or reads[0].name.value not in own or reads[0].name.value in wrapper_names:
            # torch stops at the first name it cannot resolve; one the module does not bind is JIT425's, and one
            # torch's module does bind (`F`, `sys`, `functools`) resolves to torch's object, failing otherwise or not
            return
        name = reads[0].name.value
        spelled = ctx.module.tree.code_for_node(outer)
        if autocast:
            ctx.report(reads[0].name, f"`@{spelled}` hands TorchScript a wrapper from torch's own "
                       f"`torch/amp/autocast_mode.py`, and TorchScript resolves this function's global names in that "
                       f"module, where `{name}` is undefined ('undefined value {name}'); drop the decorator "
                       f"(TorchScript compiles the body without autocast either way), or have this function call an "
                       f"undecorated one that holds the body")
            return
        ctx.report(
            reads[0].name,
            f"`@{spelled}` hands TorchScript a wrapper from torch's own `torch/utils/_contextlib.py`, and TorchScript "
            f"resolves this function's global names in that module, where `{name}` is undefined ('undefined value "
            f"{name}'); drop the decorator and put the body under `with torch.no_grad():` (a context manager "
            f"TorchScript supports)" if decorator.endswith("no_grad") else
            f"`@{spelled}` hands TorchScript a wrapper from torch's own `torch/utils/_contextlib.py`, and TorchScript "
            f"resolves this function's global names in that module, where `{name}` is undefined ('undefined value "
            f"{name}'); drop the decorator, or call this function from code that sets the mode",
        )

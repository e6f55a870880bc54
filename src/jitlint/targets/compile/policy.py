"""The `compile` capture policy: what TorchDynamo traces when `torch.compile(model)` runs (verified on torch 2.13).

Roots: `forward` of each nn.Module class (any module may be the one compiled, and a compiled model inlines its
submodules' forwards), the forward hooks and pre-hooks a module registers on itself or on a submodule
(`self.register_forward_hook(self._hook)`: Dynamo traces a compiled module's `__call__`, hooks included), and free
functions compiled by name (`@torch.compile`, `torch.compile(fn)`). From there, through the shared worklist,
everything they call, across files: Dynamo inlines every Python function it meets, `@torch.jit.ignore` and
`@torch.jit.unused` bodies included (Dynamo does not read TorchScript's markers).

What stops the walk (the body is not traced): `@torch.compiler.disable` / `@torch._dynamo.disable` functions (the
call is a graph break of its own, which the user asked for), `@torch.compiler.allow_in_graph` functions (put in
the graph as one call). A `@torch.jit.script` function is traced like any other: Dynamo inlines the Python
function TorchScript compiled (torch 2.13 keeps it as `_torchdynamo_inline`).

Pruned while tracing (Dynamo constant-folds these and never traces the other branch):
`torch.compiler.is_compiling()` and `torch._dynamo.is_compiling()` are True; `torch.jit.is_scripting()`,
`torch.jit.is_tracing()`, `torch._C._get_tracing_state()`, `torch.compiler.is_exporting()` and
`torch.onnx.is_in_onnx_export()` are False (a project function that only returns one of them, too); folded
with three-valued `and`/`or`/`not`, and code after an `if <folded True>: return` is pruned. `self.training` is not
folded: torch.compile is used for training and for inference, and guards on the mode.
"""

from __future__ import annotations

from typing import Iterator

import libcst as cst

from jitlint.capture import Capture, CapturePolicy
from jitlint.facts.dispatch import instance_methods, possible_callees, submodule_methods
from jitlint.names import ImportTable, first_param_name
from jitlint.project import ClassInfo, FunctionInfo, ModuleInfo
from jitlint.pruning import CheckScanner, fold_checks
from jitlint.targets.compile.datadep import CompileDatadep
from jitlint.walk import walk

# The value each check has while Dynamo traces (verified on torch 2.13: the other branch holds `print` or NumPy on a
# tensor's value, and compiles in one graph only when the check has this value).
COMPILE_CHECKS: dict[str, bool] = {
    "torch.compiler.is_compiling": True,
    "torch.compiler.is_dynamo_compiling": True,
    "torch._dynamo.is_compiling": True,
    "torch._utils.is_compiling": True,
    "torch.jit.is_scripting": False,
    "torch._C._is_scripting": False,
    "torch.jit.is_tracing": False,
    "torch.compiler.is_exporting": False,
    "torch.onnx.is_in_onnx_export": False,
    "torch.fx._symbolic_trace.is_fx_tracing": False,
    "torch.fx._symbolic_trace.is_fx_symbolic_tracing": False,
    "torch._C._get_tracing_state": False,  # None under Dynamo (`tracing_state_functions`): falsy
}

# Decorators whose function Dynamo does not trace into.
NOT_TRACED = frozenset({
    "torch.compiler.disable", "torch._dynamo.disable", "torch._dynamo.eval_frame.disable",
    "torch.compiler.allow_in_graph", "torch._dynamo.allow_in_graph",
})
COMPILE = frozenset({"torch.compile"})
_HOOK_REGISTRATIONS = frozenset({"register_forward_hook", "register_forward_pre_hook"})


def compile_value(test: cst.BaseExpression, imports: ImportTable, project=None, depth: int = 0) -> bool | None:
    """The constant a test has while Dynamo traces it, or None when it is not one of `COMPILE_CHECKS` (or a project
    function of no parameters that only returns one: `torchvision._is_tracing()`, inlined by Dynamo)."""
    call = None
    if project is not None and depth < 3:
        def call(qualified: str) -> bool | None:
            return _wrapper_value(project.resolve(qualified), project, depth)
    return fold_checks(test, imports, COMPILE_CHECKS, call=call)


def _wrapper_value(function, project, depth: int) -> bool | None:
    """The value of a call of `function` when its body is one `return <check>` and it takes no parameters."""
    if not isinstance(function, FunctionInfo):
        return None
    node = function.node
    params = node.params
    if params.params or params.posonly_params or params.kwonly_params or isinstance(params.star_arg, cst.Param):
        return None
    body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
    statements = [statement for statement in body if not (
        isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr) and isinstance(statement.body[0].value, cst.SimpleString))]
    if len(statements) != 1 or not isinstance(statements[0], cst.SimpleStatementLine):
        return None
    small = statements[0].body[0]
    if not isinstance(small, cst.Return) or small.value is None:
        return None
    return compile_value(small.value, function.module.imports, project, depth + 1)


def not_traced(function: FunctionInfo) -> bool:
    """Dynamo does not trace the function's body (`NOT_TRACED` decorators, with or without arguments)."""
    return bool(function.decorators & NOT_TRACED)


class CompileScanner(CheckScanner):
    """The compile capture's tests folded (`compile_value`), and the code after an RNN submodule's call left out."""

    def __init__(self, root: cst.FunctionDef, imports: ImportTable, project=None, cls: ClassInfo | None = None) -> None:
        call = None
        if project is not None:
            def call(qualified: str) -> bool | None:
                return _wrapper_value(project.resolve(qualified), project, 0)
        super().__init__(root, imports, COMPILE_CHECKS, call=call)
        self.project = project
        self.cls = cls

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        super().visit_IndentedBlock(node)
        if node is self.root.body:
            self._prune_after_unresumable(node.body)

    def _prune_after_unresumable(self, statements) -> None:
        """Loading an `nn.LSTM`/`nn.GRU`/`nn.RNN` submodule (`self.rnn`) raises Dynamo's "Attempted to wrap RNN, GRU,
        or LSTM" outside a call handler: torch 2.13 compiles up to the previous resumable state and runs the rest of
        the function in Python (`InstructionTranslatorBase.step`, "Encountered graph break that we cannot resume
        from"). The statements after the first such one in the function's own body are not traced; what they call
        is still compiled, each function as its own frame, so their calls stay explored."""
        if self.cls is None or self.project is None:
            return
        self_name = first_param_name(self.root)
        if self_name is None:
            return
        attributes = self.project.attributes(self.cls)
        for index, statement in enumerate(statements):
            if id(statement) in self.scan.pruned:
                continue
            calls = _calls_in(statement)
            if any(_recurrent_attribute(call, self_name, attributes) for call in calls):
                for rest in statements[index + 1:]:
                    if id(rest) not in self.scan.pruned:
                        self.scan.pruned.add(id(rest))
                        self.scan.calls.extend(_calls_in(rest))
                return


RECURRENT = frozenset({"torch.nn.RNN", "torch.nn.LSTM", "torch.nn.GRU", "torch.nn.RNNBase"})


def _recurrent_attribute(call: cst.Call, self_name: str, attributes) -> bool:
    func = call.func
    if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == self_name):
        return False
    info = attributes.get(func.attr.value)
    return info is not None and bool(info.constructors & RECURRENT)


def _calls_in(statement: cst.CSTNode) -> list[cst.Call]:
    """The calls of a statement, not those of a function, class or lambda defined in it."""
    found: list[cst.Call] = []

    class Calls(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                return False
            if isinstance(node, cst.Call):
                found.append(node)
            return True

    statement.visit(Calls())
    return found


class _Registrations(cst.CSTVisitor):
    """`<x>.register_forward_hook(self.<method>)` / `(<function>)` and `torch.compile(<f>)` / `@torch.compile`."""

    def __init__(self, imports: ImportTable) -> None:
        self.imports = imports
        self.hooks: list[tuple[cst.FunctionDef | None, cst.BaseExpression]] = []  # (enclosing function, hook)
        self.compiled: list[cst.BaseExpression] = []
        self.functions: list[cst.FunctionDef] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.append(node)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.pop()

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not node.args or node.args[0].keyword is not None:
            return
        if isinstance(func, cst.Attribute) and func.attr.value in _HOOK_REGISTRATIONS:
            self.hooks.append((self.functions[-1] if self.functions else None, node.args[0].value))
        elif (self.imports.qualify(func) or "") in COMPILE:
            self.compiled.append(node.args[0].value)


class CompilePolicy(CapturePolicy):
    name = "compile"
    # Helpers' parameters take the kinds their callers pass, from callers in any file (`follow_calls`): a run split
    # across workers would see only the callers of each worker's files (the engine keeps it whole).
    needs_one_process = True

    def __init__(self, project, captured, settings=None) -> None:
        super().__init__(project, captured, settings)
        # What Dynamo makes of values (`jitlint.facts.datadep`) in the mode the run judges.
        self.datadep = CompileDatadep.for_settings(self.settings)

    def roots(self) -> Iterator[Capture]:
        for module in list(self.project.linted):
            yield from self.forwards(module)
            for function in module.functions.values():
                if function.decorators & COMPILE:
                    yield function, None, "@torch.compile"
            yield from self._registered(module)

    def _registered(self, module: ModuleInfo) -> Iterator[Capture]:
        """Hooks registered in a module class's methods, and functions passed to `torch.compile`."""
        text = module.text
        if text is not None and "register_forward" not in text and "compile" not in text:
            return
        project = self.project
        finder = _Registrations(module.imports)
        walk(module.tree, finder)
        for enclosing, hook in finder.hooks:
            if isinstance(hook, cst.Attribute) and isinstance(hook.value, cst.Name):
                cls = self._class_of(module, enclosing)
                if cls is not None and enclosing is not None and hook.value.value == first_param_name(enclosing):
                    method = project.find_method(cls, hook.attr.value)
                    if method is not None:
                        yield method, cls, f"forward hook of {cls.name}"
                continue
            resolved = project.resolve(module.imports.qualify(hook))
            if isinstance(resolved, FunctionInfo):
                yield resolved, resolved.cls, "forward hook"
        for target in finder.compiled:
            resolved = project.resolve(module.imports.qualify(target))
            if isinstance(resolved, FunctionInfo):
                yield resolved, resolved.cls, "passed to torch.compile"

    def _class_of(self, module: ModuleInfo, function: cst.FunctionDef | None) -> ClassInfo | None:
        if function is None:
            return None
        for cls in module.classes.values():
            if any(method.node is function for method in cls.methods.values()):
                return cls if self.project.is_module_class(cls) else None
        return None

    def constructor(self, cls: ClassInfo) -> FunctionInfo | None:
        # Dynamo builds an object of a user-defined class in the graph's frame and inlines its `__init__` with the
        # arguments the call gives (`UserDefinedClassVariable.call_function`, the polyfill
        # `instantiate_user_defined_class_object`): a break inside it is at its line. Not an exception's: raising
        # one ends the trace there.
        init = self.project.find_method(cls, "__init__")
        if init is None or not_traced(init) or self._is_exception(cls):
            return None
        return init

    def _is_exception(self, cls: ClassInfo) -> bool:
        return any(base and base.startswith("builtins.") and base.endswith(("Error", "Exception", "Warning"))
                   for klass in self.project.mro(cls) for base in klass.base_names)

    def body_captured(self, function: FunctionInfo) -> bool:
        return not not_traced(function)

    def dispatched(self, func: cst.BaseExpression, caller: FunctionInfo) -> list[tuple[FunctionInfo, ClassInfo | None]]:
        # Dynamo inlines whichever function the value holds when it runs the call: each one a registry or a local
        # name may give, or the method of each class a submodule may be (`self.transform.postprocess(...)`, the
        # submodule passed to `__init__` by the classes that build it), or of each class an object built in the
        # function may be (`solver = SOLVERS[method](...); solver.integrate(t)`), bound to it: `self.<name>` inside
        # resolves against that class.
        found = possible_callees(self.project, caller, func) or submodule_methods(self.project, caller, func)
        return [(function, function.cls) for function in found] or instance_methods(self.project, caller, func)

    def scanner(self, function: FunctionInfo) -> CompileScanner:
        return CompileScanner(function.node, function.module.imports, self.project, function.cls)

"""JIT4xx: calls, attributes and globals TorchScript cannot compile. The API lists live in data/unsupported.toml."""

from __future__ import annotations

import math

import libcst as cst

from jitlint.apis import unsupported
from jitlint.facts.syntax import assigned_names
from jitlint.names import first_param_name
from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from jitlint.targets.script import schemas
from jitlint.targets.script.claims import results_for, with_path
from jitlint.targets.script.facts import ScriptTypes
from jitlint.targets.script.literals import global_value_type, python_kind
from jitlint.targets.script.rewrite import (
    class_body_indent, class_of, compiled_function, enclosing_statement, stored_names,
)
from jitlint.targets.script.rules import ScriptRule
from jitlint.targets.script.scopes import params_of
from jitlint.targets.script.typing.types import describe
from jitlint.walk import walk


class _Names(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: list[str] = []

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        walk(node.value, self)  # `a.b`: `b` is not a name of its own
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        walk(node.value, self)  # `f(k=v)`: `k` is not a name of its own
        return False

    def visit_Name(self, node: cst.Name) -> None:
        self.names.append(node.value)


def eager_helper_fix(ctx: RuleContext) -> PendingFix | None:
    """Move an eager-only statement with no result (`print(x.numpy())`, `log.info(...)`) into a new
    `@torch.jit.ignore` method that compiled code calls. Unsafe: the scripted module then calls back into Python,
    which works in-process but not once saved and loaded in C++. Offered when the statement reads only parameters."""
    function = ctx.function
    statement = ctx.enclosing(cst.SimpleStatementLine)
    torch = ctx.torch_name
    if function is None or function.info.bound_first_param != "instance" or torch is None or statement is None:
        return None
    if len(statement.body) != 1 or not isinstance(statement.body[0], cst.Expr):
        return None
    node = function.info.node
    params = [*node.params.posonly_params, *node.params.params]
    if not params:  # `def forward(**kwargs)` in a class: no `self` to call a helper on
        return None
    self_name = params[0].name.value
    by_name = {p.name.value: p for p in params[1:]}
    collector = _Names()
    walk(statement.body[0], collector)
    module = ctx.module
    arguments: list[str] = []
    for name in dict.fromkeys(collector.names):
        if name == self_name or name in module.imports.aliases or name in module.imports.local_definitions:
            continue
        if name in module.globals or (name not in by_name and ctx.qualify(cst.Name(name))):
            continue
        param = by_name.get(name)
        if param is None or (param.annotation is None and param.default is not None):
            return None  # a local, or a parameter whose type is not plainly a Tensor
        arguments.append(name)
    code = ctx.code(statement.body[0])
    if "\n" in code:
        return None
    index = sum(1 for _ in _statements_before(node, statement))
    helper = f"_eager_{node.name.value}_{index}"
    signature = ", ".join(
        [self_name] + [f"{a}: {ctx.code(by_name[a].annotation.annotation) if by_name[a].annotation else torch + '.Tensor'}"
                       for a in arguments]
    )
    indent = ctx.indent_of(node)
    step = ctx.module.tree.default_indent
    method = (f"\n\n{indent}@{torch}.jit.ignore\n{indent}def {helper}({signature}) -> None:\n"
              f"{indent}{step}{code}")
    call = f"{self_name}.{helper}({', '.join(arguments)})"
    return PendingFix(f"move it into `@{torch}.jit.ignore` method `{helper}`",
                      [PendingEdit(statement.body[0], call), PendingEdit(node, method, insert_after=True)])


def _statements_before(function: cst.FunctionDef, statement: cst.CSTNode):
    """The simple statements of a function up to `statement`, in order (a stable index for the helper's name)."""
    found = []

    class Walk(cst.CSTVisitor):
        def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
            if not found or found[-1] is not statement:
                found.append(node)
            return False

    walk(function.body, Walk())
    return found[: found.index(statement)] if statement in found else found


class NoNumpy(ScriptRule):
    code = "JIT401"
    name = "no-numpy"
    severity = "error"
    summary = "`.numpy()`, `torch.from_numpy`, NumPy calls"
    fix = "unsafe"
    message = "NumPy is not available in TorchScript"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        func = node.func
        # With the export or trace target enabled too, the TorchScript escape hatches are no advice: default-mode
        # torch.export and torch.jit.trace run `@torch.jit.ignore` bodies and `is_scripting()`-False branches; export
        # rejects NumPy there, trace bakes its result as a constant (verified on torch 2.13). Tensor-only code works
        # for all of them.
        both = bool(ctx.targets & {"export", "trace"})
        fix = numpy_round_trip(node, ctx) or (None if both else eager_helper_fix(ctx))
        if isinstance(func, cst.Attribute) and func.attr.value == "numpy" and not node.args:
            if both:
                others = []
                if "export" in ctx.targets:
                    others.append("nor by default torch.export (export)")
                if "trace" in ctx.targets:
                    others.append("and torch.jit.trace (trace) bakes its result as a constant")
                text = (f"`.numpy()` is not supported by TorchScript (script), {', '.join(others)}, even in a "
                        "`@torch.jit.ignore` method or an `is_scripting()` branch; keep the value a Tensor")
            else:
                text = ("`.numpy()` is not supported by TorchScript; keep the value a Tensor, or move the NumPy code "
                        "into a `@torch.jit.ignore` method or under `if not torch.jit.is_scripting():`")
            ctx.report(node, text, fix=fix)
            return
        qualified = ctx.qualify(func)
        if qualified == "torch.from_numpy":
            ctx.report(node, "`torch.from_numpy()` is not supported by TorchScript; the input is already a Tensor there",
                       fix=fix)
        elif qualified is not None and (qualified.startswith("numpy.") or qualified == "numpy"):
            ctx.report(node, f"NumPy call `{qualified}` is not supported by TorchScript; use the torch equivalent",
                       fix=fix)


def _python_object_global(name: cst.Name, ctx: RuleContext) -> str | None:
    """`log = logging.getLogger(...)` at module level: the stdlib module a global object comes from."""
    value = ctx.module.globals.get(name.value)
    if isinstance(value, cst.Call):
        qualified = ctx.qualify(value.func) or ""
        module = qualified.split(".", 1)[0]
        if module in unsupported("python-module"):
            return module
    return None


class NoPythonStdlibCall(ScriptRule):
    code = "JIT402"
    name = "no-python-stdlib-call"
    severity = "error"
    summary = "`random`, `time`, `copy`, `logging`, `os`, ... calls"
    fix = "unsafe"
    message = "Python standard-library call not supported by TorchScript"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and not _is_local(func.value, ctx):
            module = _python_object_global(func.value, ctx)
            if module is not None:
                ctx.report(node, f"`{func.value.value}` is a Python `{module}` object (a global), which TorchScript "
                                 "cannot call; move the call into a `@torch.jit.ignore` method", fix=eager_helper_fix(ctx))
                return
        qualified = ctx.qualify(node.func)
        if qualified is not None:
            module = qualified.split(".", 1)[0]
            if _unsupported_math(qualified):
                ctx.report(node, f"TorchScript has no builtin for `{qualified}` (it compiles only the `math` "
                                 "functions it maps to operators); compute it with supported operations, or move it "
                                 "into a `@torch.jit.ignore` method", fix=eager_helper_fix(ctx))
                return
            if module in unsupported("python-module"):
                if module in ("random", "time") and "trace" in ctx.targets:
                    # torch.jit.trace runs a `@torch.jit.ignore` method once and bakes the value it returns.
                    ctx.report(node, f"`{qualified}` is Python's `{module}` module, which TorchScript cannot call, "
                                     "and whose value torch.jit.trace (trace) computes once and bakes, also in a "
                                     "`@torch.jit.ignore` method; use a torch op (`torch.rand`) or pass the value in")
                    return
                ctx.report(node, f"`{qualified}` is Python's `{module}` module, which TorchScript cannot call; "
                                 "use a torch equivalent or move it into a `@torch.jit.ignore` method",
                           fix=eager_helper_fix(ctx))
            return


def _unsupported_math(qualified: str) -> bool:
    """A function of Python's `math` module TorchScript has no builtin for (`math.hypot`, `math.log2`, `math.prod`):
    torch resolves `math.<name>` through its builtin table (the schema data's `calls`), and a function missing from
    it is 'currently not supported'. The constants (`math.pi`) are not calls."""
    if not qualified.startswith("math.") or qualified.count(".") != 1:
        return False
    function = getattr(math, qualified[5:], None)
    return callable(function) and schemas.operator_for(qualified) is None


class NoLegacyTensorConstructor(ScriptRule):
    code = "JIT403"
    name = "no-legacy-tensor-ctor"
    severity = "error"
    summary = "`torch.Tensor(...)`, `x.new(...)`"
    fix = "unsafe"
    message = "legacy tensor constructor"
    facts = (ScriptTypes,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # `torch.LongTensor(...)` & co.: TorchScript compiles two forms of them only
        for result in results_for(self, node, ctx):
            if result.keyword == "*":
                got = "multiple kwargs"
            elif result.keyword:
                got = f"kwarg {result.keyword}"
            else:
                got = "multiple positional arguments that were not all integers"
            ctx.report(result.node, f"TorchScript compiles `torch.{result.form}(...)` only as `(*sizes: int, "
                                    f"device=None)` or `(data, device=None)` (torch: 'Legacy Tensor Constructor only "
                                    f"supports two schemas in TorchScript ... Got {got}'); use `torch.empty(...)` or "
                                    "`torch.tensor(...)` with a `dtype=`")

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if ctx.qualify(node.func) == "torch.Tensor":
            fix = None
            if len(node.args) == 1 and isinstance(node.args[0].value, (cst.List, cst.Tuple)) and isinstance(node.func, cst.Attribute):
                # Unsafe: torch.Tensor(data) is always float32; torch.tensor infers the dtype (ints stay ints).
                new = ctx.code(node.func.value) + ".tensor"
                fix = PendingFix(f"use `{new}(data)`", [PendingEdit(node.func, new)])
            ctx.report(node, "`torch.Tensor(...)` is not supported by TorchScript; use `torch.tensor(data)` or "
                             "`torch.empty(sizes)`", fix=fix)
        elif isinstance(node.func, cst.Attribute) and node.func.attr.value == "new" and ctx.qualify(node.func) is None:
            ctx.report(node, "`x.new(...)` is not supported by TorchScript; use `x.new_empty(sizes)` or "
                             "`x.new_tensor(data)`")


class NoBuiltinMapFilter(ScriptRule):
    code = "JIT404"
    name = "no-builtin-map-filter"
    severity = "error"
    summary = "`map()`/`filter()`"
    fix = "safe"
    message = "`map()`/`filter()` are not supported by TorchScript; use a list comprehension or a loop"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        qualified = ctx.qualify(node.func)
        if qualified in ("builtins.map", "builtins.filter"):
            fix = None
            if qualified == "builtins.map" and len(node.args) == 2 and not any(a.keyword or a.star for a in node.args):
                fix = PendingFix("use a list comprehension", [PendingEdit(node, _comprehension(node, ctx))])
            ctx.report(node, fix=fix)


def _comprehension(node: cst.Call, ctx: RuleContext) -> str:
    """`map(f, xs)` as `[f(item) for item in xs]`. A lambda of one plain parameter becomes the comprehension's
    expression (`map(lambda t: t * 2, xs)` -> `[t * 2 for t in xs]`: its parameter is the loop variable, in a scope
    of its own as the lambda's was); any other function that is not a name, an attribute, a call or a subscript is
    parenthesised, so that the call applies to all of it (`(a if c else b)(item)`, not `a if c else b(item)`)."""
    function_node, iterable_node = (a.value for a in node.args)
    iterable = ctx.code(iterable_node)
    params = function_node.params if isinstance(function_node, cst.Lambda) else None
    if (params is not None and len(params.params) == 1 and not params.posonly_params and not params.kwonly_params
            and params.star_arg is cst.MaybeSentinel.DEFAULT and params.star_kwarg is None
            and params.params[0].default is None):
        name = params.params[0].name.value
        return f"[{ctx.code(function_node.body)} for {name} in {iterable}]"
    function = ctx.code(function_node)
    if not isinstance(function_node, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
        function = f"({function})"
    item = next(n for n in ("item", "item_", "element") if n not in function + iterable)
    return f"[{function}({item}) for {item} in {iterable}]"


class NoUnsupportedBuiltin(ScriptRule):
    code = "JIT405"
    facts = (ScriptTypes,)
    name = "no-python-builtin-unsupported"
    severity = "error"
    summary = "`setattr`, `next`, `iter`, `repr`, `format`, ... builtins; `id()` of a Tensor, int, str, list, ..."
    fix = "unsafe"
    message = "Python builtin not supported by TorchScript"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        qualified = ctx.qualify(node.func) or ""
        name = qualified.removeprefix("builtins.")
        if qualified.startswith("builtins.") and name in unsupported("builtin"):
            ctx.report(node, f"the builtin `{name}()` is not supported by TorchScript",
                       fix=guard_statement(node, ctx) if name == "setattr" else None)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # `id(x)` depends on the type of `x` (TorchScript's `prim::id` takes a class instance or None): the typer
        # finds the calls whose argument is known to be something else.
        for result in results_for(self, node, ctx):
            ctx.report(result.node, f"TorchScript's `id()` takes only an instance of a TorchScript class (or None), "
                                    f"and this is of type {result.type} (torch: \"Expected a value of type "
                                    "'Optional[AnyClassType]' for argument 'x'\"); compare the values themselves, or keep "
                                    "this out of compiled code")


class NoModuleIntrospection(ScriptRule):
    code = "JIT406"
    name = "no-module-introspection-in-forward"
    severity = "error"
    summary = "`self.parameters()`, `self.state_dict()`, `self.train()` and such nn.Module methods in compiled code"
    message = "module introspection in compiled code"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        name = _self_method_name(node, ctx)
        if name in unsupported("module-introspection") and not any(
                ctx.project.find_method(owner, name) or name in ctx.project.attributes(owner)
                for owner in ctx.function.owners):  # a method or attribute of the class's own is compiled instead
            ctx.report(node, f"`self.{name}()` cannot be compiled (TorchScript compiles it from torch's module.py and "
                             f"fails there, with no line in your code); compute what you need in `__init__`")
        elif name in ("modules", "named_modules") and ctx.function.owners:
            # Every owner must hold an interface: stop at the first that does not (in a base with hundreds of
            # subclasses, asking each one reads the modules of all their annotations).
            held = []
            for owner in ctx.function.owners:
                found = _interface_attribute(owner, ctx)
                if found is None:
                    break
                held.append(found)
            else:
                ctx.report(
                    node,
                    f"`self.{name}()` cannot be compiled when a submodule is typed by an interface (`self.{held[0]}`): "
                    f"torch says 'Could not compile {name}() because module is an interface type'; "
                    "use `self.children()`, or name the submodules",
                )


def _interface_attribute(cls, ctx: RuleContext) -> str | None:
    """The name of an attribute of module class `cls` annotated in the class body with a project class decorated
    `@torch.jit.interface` (TorchScript then types that submodule as the interface)."""
    project = ctx.project
    for name, info in project.attributes(cls).items():
        if info.annotation is None or info.annotation_imports is None:
            continue
        interface = project.resolve_class(info.annotation_imports.qualify(info.annotation))
        if interface is None:
            continue
        imports = interface.module.imports
        for decorator in interface.node.decorators:
            expr = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
            if imports.qualify(expr) == "torch.jit.interface":
                return name
    return None


def _self_method_name(node: cst.Call, ctx: RuleContext) -> str | None:
    """`name` for a call `self.name(...)` in a method of a class."""
    func = node.func
    function = ctx.function
    if function is None or function.info.bound_first_param != "instance":
        return None
    if (
        isinstance(func, cst.Attribute)
        and isinstance(func.value, cst.Name)
        and func.value.value == first_param_name(function.info.node)
    ):
        return func.attr.value
    return None


class NoSuperCall(ScriptRule):
    code = "JIT407"
    name = "no-super-call"
    severity = "error"
    summary = "`super().method(...)`"
    message = (
        "`super()` is not supported in compiled code (torch reports a misleading \"'Tensor' object has no "
        "attribute 'forward'\"); call a base-class helper method through `self` instead"
    )
    fix = "unsafe"

    def visit_Attribute(self, node: cst.Attribute, ctx: RuleContext) -> None:
        if isinstance(node.value, cst.Call) and ctx.qualify(node.value.func) == "builtins.super":
            ctx.report(node, fix=super_call(node, ctx))


class NoExplicitBaseMethodCall(ScriptRule):
    code = "JIT408"
    name = "no-explicit-base-method-call"
    severity = "error"
    summary = "`Base.method(self, ...)`"
    fix = "unsafe"
    message = "a method called through its class (`Base.method(self, ...)`) is not supported by TorchScript"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        func = node.func
        if not (isinstance(func, cst.Attribute) and node.args and ctx.function is not None):
            return
        cls = ctx.project.resolve_class(ctx.qualify(func.value))
        if cls is None:
            return
        method = ctx.project.find_method(cls, func.attr.value)
        first = node.args[0].value
        if (
            method is not None
            and method.bound_first_param == "instance"
            and isinstance(first, cst.Name)
            and first.value == first_param_name(ctx.function.info.node)
        ):
            same = _self_resolves_to(method, ctx)
            ctx.report(node, f"`{cls.name}.{method.name}(self, ...)` is not supported by TorchScript; call "
                             f"`self.{method.name}(...)` (rename the override if it shadows it)",
                       fix=call_through_self(node, method.name, ctx) if same else None)


def _self_resolves_to(method, ctx: RuleContext) -> bool:
    """Whether `self.<name>` is `method` itself in the class that holds the calling function and in every class it
    is captured for: otherwise `self.<name>(...)` runs an override (the caller itself, when it is the override)."""
    function = ctx.function
    classes = [function.info.cls, *function.owners] if function.info.cls is not None else list(function.owners)
    return bool(classes) and all(ctx.project.find_method(cls, method.name) is method for cls in classes)


class NoRegistrationInForward(ScriptRule):
    code = "JIT409"
    name = "no-register-in-forward"
    severity = "error"
    summary = "`register_buffer`/`add_module`/hook registration in compiled code"
    fix = "unsafe"
    message = "module registration in compiled code"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        name = _self_method_name(node, ctx)
        if name in unsupported("module-registration"):
            ctx.report(node, f"`self.{name}(...)` cannot run in compiled code; register it in `__init__`",
                       fix=guard_statement(node, ctx))


class NoAutogradTensorApi(ScriptRule):
    code = "JIT410"
    name = "no-autograd-tensor-api"
    severity = "error"
    summary = "`.register_hook()`, `.retain_grad()`, `.backward()`, `x.requires_grad = ...`"
    fix = "unsafe"
    message = "eager autograd API in compiled code"
    facts = (ScriptTypes,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        for result in results_for(self, node, ctx):  # an attribute set on a value that is no object
            ctx.report(result.node, f"TorchScript sets attributes only on class instances, and this is "
                                    f"{describe(result.type)} (torch: 'Tried to set an attribute: {result.name} on a "
                                    f"non-class: {result.type}'); keep the value in a variable of its own")

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in unsupported("autograd-method"):
            if ctx.qualify(func) is None and _self_method_name(node, ctx) is None:
                ctx.report(node, f"`.{func.attr.value}()` is eager autograd API that TorchScript does not support; "
                                 "move it into a `@torch.jit.ignore` method", fix=guard_statement(node, ctx))

    def visit_AssignTarget(self, node: cst.AssignTarget, ctx: RuleContext) -> None:
        target = node.target
        if isinstance(target, cst.Attribute) and target.attr.value == "requires_grad":
            ctx.report(target, "setting `.requires_grad` is not supported by TorchScript; use `.requires_grad_()`")


class PrintKeywordArguments(ScriptRule):
    code = "JIT411"
    name = "print-kwargs"
    severity = "error"
    summary = "`print(..., sep=...)`"
    fix = "unsafe"
    message = "`print()` takes no keyword arguments (`sep`, `end`, `file`, `flush`) in TorchScript"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if ctx.qualify(node.func) == "builtins.print" and any(arg.keyword is not None for arg in node.args):
            ctx.report(node, fix=print_without_keywords(node, ctx))


class BuiltinKeywordArguments(ScriptRule):
    code = "JIT412"
    name = "builtin-keyword-args"
    severity = "error"
    summary = "`max(key=...)`, `sorted(reverse=...)`, `split(maxsplit=...)`, `round(x, n)`"
    fix = "safe"
    message = "keyword argument TorchScript's builtin does not take"
    facts = (ScriptTypes,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # the frontend's special forms (`getattr`, `isinstance`, `slice`, `torch._check` ...) and their keywords
        for result in results_for(self, node, ctx):
            if result.twice:
                problem = f"{result.form}() got multiple values for argument '{result.keyword}'"
            elif result.form in ("rpc_sync", "rpc_async", "remote"):
                problem = f"{result.form}(dst_worker_name, user_callable, args, kwargs)does not support kwargs yet"
            elif result.form == "slice":
                problem = "Slice does not accept any keyword arguments"
            else:
                problem = f"{result.form} takes no keyword arguments"
            ctx.report(result.node, f"TorchScript rejects this call: '{problem}'; pass the arguments by position")

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        qualified = ctx.qualify(node.func)
        keywords = {arg.keyword.value: arg for arg in node.args if arg.keyword is not None}
        if qualified in ("builtins.max", "builtins.min", "builtins.sorted") and "key" in keywords:
            ctx.report(keywords["key"], f"`{qualified[9:]}(..., key=...)` is not supported by TorchScript; loop and compare")
        elif qualified == "builtins.sorted" and "reverse" in keywords:
            ctx.report(keywords["reverse"], "`sorted(..., reverse=...)` is not supported by TorchScript; use "
                                            "`xs.sort(reverse=True)` on a copy")
        elif qualified == "builtins.round" and len(node.args) == 2:
            ctx.report(node, "`round(x, ndigits)` is not supported by TorchScript; use `torch.round(t, decimals=n)`")
        elif (
            qualified is None
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in ("split", "rsplit")
            and "maxsplit" in keywords
        ):
            argument = keywords["maxsplit"]
            positional = [a for a in node.args if a.keyword is None]
            fix = None
            if len(positional) == 1 and node.args[0] is positional[0]:  # split(sep, maxsplit=n) -> split(sep, n)
                fix = PendingFix("pass `maxsplit` positionally",
                                 [PendingEdit(argument, ctx.code(argument.value))])
            ctx.report(argument, "`str.split(sep, maxsplit=n)` is not supported by TorchScript; pass it "
                                 "positionally: `split(sep, n)`", fix=fix)


class TorchUtilsCheckpoint(ScriptRule):
    code = "JIT413"
    name = "torch-utils-checkpoint"
    severity = "error"
    summary = "`torch.utils.checkpoint` without an `is_scripting()` guard"
    fix = "safe"
    message = (
        "activation checkpointing cannot be compiled (torch reports it inside its own files, with no line in yours); "
        "guard it: `if not torch.jit.is_scripting() and self.training:`"
    )

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        qualified = ctx.qualify(node.func) or ""
        if qualified.startswith("torch.utils.checkpoint.checkpoint"):
            ctx.report(node, fix=checkpoint_when_eager(node, ctx))


class TorchApiNotScriptable(ScriptRule):
    code = "JIT414"
    name = "torch-api-not-scriptable"
    severity = "error"
    summary = "`torch.is_tensor`, `torch.get_default_dtype`, `x.data_ptr()`, ..."
    fix = "safe"
    message = "torch API that TorchScript does not support"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        qualified = ctx.qualify(node.func)
        if qualified in unsupported("torch-function"):
            ctx.report(node, f"`{qualified}()` is not supported by TorchScript", fix=isinstance_tensor(node, ctx))
        elif (
            qualified is None
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in unsupported("tensor-method") - {"new"}
        ):
            ctx.report(node, f"`.{node.func.attr.value}()` is not a TorchScript Tensor method")


def _is_local(name: cst.Name, ctx: RuleContext) -> bool:
    function = ctx.function.info.node if ctx.function else None
    if function is None:
        return False
    return name.value in params_of(function) or name.value in assigned_names(function)


class GlobalPythonConstant(ScriptRule):
    code = "JIT415"
    facts = (ScriptTypes,)
    name = "global-python-constant"
    severity = "error"
    summary = "a module-level constant (also imported from another file) read in compiled code"
    fix = "unsafe"
    message = "module-level Python value read in compiled code"

    # What torch says for each use of a Python value (`PythonValue`): its `asValue`, `iter`, `attr`, `asTuple`.
    _USES = {
        "value": "cannot be used as a value", "iterable": "cannot be used as an iterable",
        "subscript": "cannot be used as a value", "tuple": "cannot be used as a tuple",
        "attribute": "attribute lookup is not defined on", "hasattr": "attribute lookup is not defined on",
        "getattr": "attribute lookup is not defined on", "attribute-assignment": "attribute assignment is not defined on",
    }

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # The typer resolves each name as torch does (a name of the file's scope is a Python value, an attribute of a
        # Python module a constant) and reports a Python value where torch needs a first-class one; a local name
        # bound to one holds it (torch keeps the sugared value), so its later reads are reported too.
        for result in results_for(self, node, ctx):
            if result.use == "attribute" and isinstance(result.node, cst.Name) and (
                    _python_object_global(result.node, ctx) is not None):
                continue  # a method of a standard-library object (`log.info(...)`): JIT402 says what it is
            module_name, _, attribute = result.name.rpartition(".")
            other = ctx.project.module(module_name)
            value = other.globals.get(attribute) if other is not None else None
            kind = (global_value_type(value, other.imports) or python_kind(value)) if value is not None else None
            where = "" if other is ctx.module else f" imported from `{module_name}`"
            said = self._USES.get(result.use, "cannot be used as a value")
            python_value = f"python value of type '{kind}'" if kind else "python value"
            torch_says = f"{said} {python_value}" if said.endswith(" on") else f"{python_value} {said}"
            if kind == "None":
                # the resolver takes a global that is None for one it did not find
                torch_says = f"undefined value {attribute}"
            spelled = f"a module-level {kind}" if kind else "a module-level Python value"
            if kind is None and isinstance(value, cst.Call):
                spelled = f"a module-level Python object (`{ctx.module.tree.code_for_node(value.func)}(...)`)"
            used = ctx.module.tree.code_for_node(result.node) if isinstance(result.node, cst.Name) else attribute
            held = f"`{used}` holds `{attribute}`, which is" if used != attribute else f"`{attribute}` is"
            message = (f"{held} {spelled}{where}; TorchScript cannot read Python globals (\"{torch_says}\"), not "
                       f"even `Final` ones. Store it on the module in `__init__` (`self.{attribute.lower()} = "
                       f"{attribute}`), or read it as a module attribute (`config.{attribute}`), which torch inlines")
            fix = None
            if not where and isinstance(result.node, cst.Name) and result.node.value == attribute:
                target = result.node
                fix = with_path(ctx, node, target, lambda: inline_constant(target, ctx))
            ctx.report(result.node, message, fix=fix)


class HasattrNameNotLiteral(ScriptRule):
    code = "JIT417"
    name = "hasattr-name-not-literal"
    severity = "error"
    summary = "`hasattr(obj, name)` whose second argument is not a string literal"
    message = "`hasattr` with a name that is not a string literal"
    facts = (ScriptTypes,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # `hasattr` of a value that has no attributes to ask for (only objects and NamedTuples do)
        for result in results_for(self, node, ctx):
            kind = result.type
            torch_says = ("hasattr's first argument must be a object or NamedTuple, but got a normal Tuple"
                          if kind.name == "Tuple" else
                          f"hasattr's first argument must be an object or NamedTuple, got {kind} instead")
            ctx.report(result.node, f"TorchScript answers `hasattr` only for a module, a class instance or a "
                                    f"NamedTuple, and this is a {kind} (torch: \"{torch_says}\"); test what you "
                                    "need to know of the value itself")

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if ctx.qualify(node.func) != "builtins.hasattr" or len(node.args) != 2:
            return
        name = node.args[1].value
        if isinstance(name, cst.SimpleString) and "f" not in name.prefix.lower():
            return
        ctx.report(
            name,
            "TorchScript decides `hasattr` while compiling, so its second argument must be a string literal "
            "('hasattr's second argument must be a string literal'); test a literal name, or keep the "
            "lookup out of compiled code",
        )


# -- fixes ----------------------------------------------------------------------------------------------------


def inline_constant(node: cst.Name, ctx: RuleContext) -> PendingFix | None:
    """`x / (x.norm() + EPS)` with `EPS = 1e-5` assigned once at module level -> `1e-5` in place. Unsafe: code that
    changes the module's constant at run time (`mod.EPS = ...`) no longer changes this function."""
    name = node.value
    values = []
    for statement in ctx.module.tree.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                targets = small.targets if isinstance(small, cst.Assign) else (
                    [small] if isinstance(small, cst.AnnAssign) else [])
                for target in targets:
                    if isinstance(target.target, cst.Name) and target.target.value == name:
                        values.append(small.value)
    if len(values) != 1 or values[0] is None or _module_rebinds(ctx.module.tree, name):
        return None
    value = values[0]
    literal = value
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
        literal = value.expression
    if not isinstance(literal, (cst.Integer, cst.Float, cst.SimpleString)) and not (
        isinstance(literal, cst.Name) and literal.value in ("True", "False") and literal is value
    ):
        return None
    code = ctx.code(value)
    if value is not literal:
        code = f"({code})"
    return PendingFix(f"use the constant's value `{ctx.code(value)}`", [PendingEdit(node, code)])


def _module_rebinds(tree: cst.Module, name: str) -> bool:
    """`global NAME` anywhere, or an assignment of NAME in a loop, `if` or function at module level."""
    found = False

    class Rebinds(cst.CSTVisitor):
        def visit_Global(self, node: cst.Global) -> None:
            nonlocal found
            found = found or any(n.name.value == name for n in node.names)

    walk(tree, Rebinds())
    for statement in tree.body:
        if isinstance(statement, (cst.For, cst.While, cst.If, cst.With, cst.Try)) and name in stored_names(statement):
            return True
    return found


def guard_statement(call: cst.Call, ctx: RuleContext) -> PendingFix | None:
    """`x.register_hook(f)` (a statement of its own) -> under `if not torch.jit.is_scripting():`, which torch
    prunes. Unsafe: eager code runs as before, but the scripted module skips the statement (no hook, no buffer,
    no attribute set)."""
    torch = ctx.torch_name
    statement = enclosing_statement(ctx)
    if torch is None or not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    small = statement.body[0]
    if not (isinstance(small, cst.Expr) and small.value is call):
        return None
    indent = ctx.indent_of(statement)
    step = ctx.module.tree.default_indent
    return PendingFix(f"run it only in eager mode (`if not {torch}.jit.is_scripting():`)", [
        PendingEdit(statement, f"if not {torch}.jit.is_scripting():\n{indent}{step}{ctx.code(small)}")])


def call_through_self(call: cst.Call, method: str, ctx: RuleContext) -> PendingFix | None:
    """`Base.helper(self, x)` -> `self.helper(x)`. Unsafe: if the class (or a subclass) overrides `helper`, the
    call now runs the override."""
    rest = call.args[1:]
    first = call.args[0].value
    arguments = ", ".join(ctx.code(a.with_changes(comma=cst.MaybeSentinel.DEFAULT)) for a in rest)
    return PendingFix(f"call `{ctx.code(first)}.{method}(...)`",
                      [PendingEdit(call, f"{ctx.code(first)}.{method}({arguments})")])


def print_without_keywords(call: cst.Call, ctx: RuleContext) -> PendingFix | None:
    """`print("x:", x, sep="")` -> `print("x:", x)`. Unsafe: the text printed (separators, line end, stream)
    changes; only offered when the keywords are literals or `flush`."""
    kept = [a for a in call.args if a.keyword is None]
    if any(a.star for a in kept):
        return None
    arguments = ", ".join(ctx.code(a.with_changes(comma=cst.MaybeSentinel.DEFAULT)) for a in kept)
    return PendingFix("drop the keyword arguments", [PendingEdit(call, f"{ctx.code(call.func)}({arguments})")])


_CHECKPOINT_OPTIONS = frozenset({"use_reentrant", "preserve_rng_state", "determinism_check", "debug"})


def checkpoint_when_eager(call: cst.Call, ctx: RuleContext) -> PendingFix | None:
    """`cp.checkpoint(f, x, use_reentrant=False)` -> `(f(x) if torch.jit.is_scripting() else cp.checkpoint(...))`:
    torch prunes the eager arm. Safe: in eager code `is_scripting()` is False and the call is unchanged (the
    scripted module computes `f(x)` without checkpointing, the same values)."""
    torch = ctx.torch_name
    if torch is None or not call.args or call.args[0].keyword is not None:
        return None
    positional = [a for a in call.args[1:] if a.keyword is None]
    if any(a.star for a in call.args) or any(
        a.keyword is not None and a.keyword.value not in _CHECKPOINT_OPTIONS for a in call.args
    ):
        return None
    function = ctx.code(call.args[0].value)
    arguments = ", ".join(ctx.code(a.value) for a in positional)
    return PendingFix("checkpoint only in eager mode", [
        PendingEdit(call, f"({function}({arguments}) if {torch}.jit.is_scripting() else {ctx.code(call)})")])


def isinstance_tensor(call: cst.Call, ctx: RuleContext) -> PendingFix | None:
    """`torch.is_tensor(x)` -> `isinstance(x, torch.Tensor)`, which is what it computes. Safe."""
    torch = ctx.torch_name
    if torch is None or ctx.qualify(call.func) != "torch.is_tensor" or len(call.args) != 1 or call.args[0].keyword:
        return None
    return PendingFix(f"use `isinstance(..., {torch}.Tensor)`",
                      [PendingEdit(call, f"isinstance({ctx.code(call.args[0].value)}, {torch}.Tensor)")])


# What torch 2.13's own `forward` of these classes computes (torch/nn/modules), for `super().forward(x)`.
_TORCH_FORWARDS = {
    "Conv1d": "self._conv_forward({x}, self.weight, self.bias)",
    "Conv2d": "self._conv_forward({x}, self.weight, self.bias)",
    "Conv3d": "self._conv_forward({x}, self.weight, self.bias)",
    "Linear": "{F}.linear({x}, self.weight, self.bias)",
    "Embedding": "{F}.embedding({x}, self.weight, self.padding_idx, self.max_norm, self.norm_type, "
                 "self.scale_grad_by_freq, self.sparse)",
    "LayerNorm": "{F}.layer_norm({x}, self.normalized_shape, self.weight, self.bias, self.eps)",
    "GroupNorm": "{F}.group_norm({x}, self.num_groups, self.weight, self.bias, self.eps)",
}


_TORCH_MODULES = ("torch.nn.", "torch.nn.modules.conv.", "torch.nn.modules.linear.", "torch.nn.modules.sparse.",
                  "torch.nn.modules.normalization.")


def _torch_base(qualified: str | None) -> str | None:
    for prefix in _TORCH_MODULES:
        if qualified and qualified.startswith(prefix) and qualified[len(prefix):] in _TORCH_FORWARDS:
            return qualified[len(prefix):]
    return None


def _mangles(node: cst.CSTNode) -> bool:
    """Whether a method reads a name that Python mangles per class (`self.__x`), or `__class__`/`super`."""
    found = False

    class Names(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            nonlocal found
            value = name.value
            found = found or value in ("super", "__class__") or (value.startswith("__") and not value.endswith("__"))

    walk(node, Names())
    return found


def super_call(attribute: cst.Attribute, ctx: RuleContext) -> PendingFix | None:
    """`super().forward(x)` in a class with one base: for a torch module whose `forward` is one call (Conv1d/2d/3d,
    Linear, Embedding, LayerNorm, GroupNorm) -> that call (`self._conv_forward(x, self.weight, self.bias)`); for a
    base class of the same file that defines the method itself -> a copy of it in the class (`_Base_forward`),
    called through `self`. Unsafe: with multiple inheritance below this class `super()` may reach another class,
    and the copy no longer follows later changes (or patches) of the base's method."""
    call = ctx.ancestors[-2] if len(ctx.ancestors) >= 2 else None
    cls = class_of(ctx)
    function = compiled_function(ctx)
    if not (isinstance(call, cst.Call) and call.func is attribute and cls is not None and function is not None
            and len(cls.bases) == 1 and not cls.keywords):
        return None
    super_args = [a.value for a in attribute.value.args]
    if super_args and not (  # `super(ThisClass, self)` is `super()`
            len(super_args) == 2 and isinstance(super_args[0], cst.Name) and super_args[0].value == cls.name.value
            and isinstance(super_args[1], cst.Name) and function.params.params
            and super_args[1].value == function.params.params[0].name.value):
        return None
    method = attribute.attr.value
    base = cls.bases[0].value
    torch_class = _torch_base(ctx.qualify(base))
    if torch_class is not None:
        torch = ctx.torch_name
        if (method != "forward" or torch is None or len(call.args) != 1 or call.args[0].star
                or call.args[0].keyword is not None):
            return None
        text = _TORCH_FORWARDS[torch_class].format(x=ctx.code(call.args[0].value), F=f"{torch}.nn.functional")
        return PendingFix(f"call what `{torch_class}.forward` computes", [PendingEdit(call, text)])
    if not isinstance(base, cst.Name):
        return None
    tree = ctx.module.tree
    classes = [s for s in tree.body if isinstance(s, cst.ClassDef)]
    base_def = next((s for s in classes if s.name.value == base.value), None)
    if base_def is None or cls not in classes or not isinstance(base_def.body, cst.IndentedBlock):
        return None
    found = [s for s in base_def.body.body if isinstance(s, cst.FunctionDef) and s.name.value == method]
    if len(found) != 1 or found[0].decorators or _mangles(found[0]) or found[0].asynchronous is not None:
        return None
    new_name = f"_{base.value}_{method}"
    copy = found[0].with_changes(name=cst.Name(new_name), leading_lines=())
    if any(isinstance(s, cst.FunctionDef) and s.name.value == new_name for s in base_def.body.body):
        return None
    existing = [s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == new_name]
    if existing:  # an earlier pass copied it: only the call is left to rewrite
        if len(existing) != 1 or ctx.code(existing[0].with_changes(leading_lines=())) != ctx.code(copy):
            return None
        return PendingFix(f"call the copy of `{base.value}.{method}` through `self`", [
            PendingEdit(attribute, f"self.{new_name}")])
    # the copy goes before the class's first method (one place, so two calls' fixes share the same edit)
    first = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef)), None)
    if first is None:
        return None
    indent = class_body_indent(cls, ctx)
    if indent is None:
        return None
    text = ctx.statement_code(first, copy, indent)
    anchor = first.decorators[0] if first.decorators else first
    return PendingFix(f"call a copy of `{base.value}.{method}` through `self`", [
        PendingEdit(anchor, f"{text}\n\n{indent}", insert_before=True),
        PendingEdit(attribute, f"self.{new_name}"),
    ])


# Reductions that NumPy arrays and torch Tensors both offer with no argument, computing the same value.
_NUMPY_REDUCTIONS = frozenset({"mean", "sum", "max", "min", "prod", "argmax", "argmin", "any", "all"})


# Elementwise NumPy functions of one array and their torch names.
_NUMPY_ELEMENTWISE = {"abs": "abs", "absolute": "abs", "exp": "exp", "log": "log", "sqrt": "sqrt", "sin": "sin",
                      "cos": "cos", "tanh": "tanh", "floor": "floor", "ceil": "ceil", "sign": "sign",
                      "negative": "neg"}


def _numpy_of(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """`x` when `node` is `x.numpy()`."""
    if (isinstance(node, cst.Call) and not node.args and isinstance(node.func, cst.Attribute)
            and node.func.attr.value == "numpy"):
        return node.func.value
    return None


def _one_arg(call: cst.Call) -> cst.BaseExpression | None:
    if len(call.args) == 1 and not call.args[0].star and call.args[0].keyword is None:
        return call.args[0].value
    return None


def _round_trip(node: cst.BaseExpression, ctx: RuleContext) -> str | None:
    """The torch spelling of a NumPy round-trip expression, or None."""
    torch = ctx.torch_name
    if torch is None or not isinstance(node, cst.Call):
        return None
    func = node.func
    # x.numpy().mean() -> x.mean()
    if isinstance(func, cst.Attribute) and func.attr.value in _NUMPY_REDUCTIONS and not node.args:
        inner = _numpy_of(func.value)
        return f"{ctx.code(inner)}.{func.attr.value}()" if inner is not None else None
    qualified = ctx.qualify(func) or ""
    argument = _one_arg(node)
    if argument is None:
        return None
    if qualified == "torch.from_numpy":
        inner = _numpy_of(argument)
        if inner is not None:  # torch.from_numpy(x.numpy()) -> x
            return ctx.code(inner)
        if isinstance(argument, cst.Call):
            name = (ctx.qualify(argument.func) or "").removeprefix("numpy.")
            array = _one_arg(argument)
            inner = _numpy_of(array) if array is not None else None
            if inner is not None and name in _NUMPY_ELEMENTWISE:  # torch.from_numpy(np.exp(x.numpy()))
                return f"{torch}.{_NUMPY_ELEMENTWISE[name]}({ctx.code(inner)})"
        return None
    if qualified.startswith("numpy.") and qualified[6:] in _NUMPY_REDUCTIONS:  # np.mean(x.numpy()) -> x.mean()
        inner = _numpy_of(argument)
        return f"{ctx.code(inner)}.{qualified[6:]}()" if inner is not None else None
    return None


def numpy_round_trip(node: cst.Call, ctx: RuleContext) -> PendingFix | None:
    """A NumPy detour that torch computes directly: `x.numpy().mean()` / `np.mean(x.numpy())` -> `x.mean()` (for
    mean, sum, max, min, prod, argmax, argmin, any, all), `torch.from_numpy(x.numpy())` -> `x`,
    `torch.from_numpy(np.exp(x.numpy()))` -> `torch.exp(x)` (abs, exp, log, sqrt, sin, cos, tanh, floor, ceil,
    sign, negative). The outermost such expression around the reported call is rewritten, so the findings of one
    expression share one edit. Unsafe: the value is a 0-dim Tensor where it was a NumPy scalar, and torch may sum
    in another order (the last bits of a float result can differ)."""
    chain = [node] + [a for a in reversed(ctx.ancestors[:-1])]
    best: tuple[cst.CSTNode, str] | None = None
    for candidate in chain[:6]:
        if isinstance(candidate, cst.Call):
            text = _round_trip(candidate, ctx)
            if text is not None:
                best = (candidate, text)
    if best is None:
        return None
    return PendingFix("compute it with torch", [PendingEdit(best[0], best[1])])

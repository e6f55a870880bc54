"""JIT4xx: calls, attributes and globals TorchScript cannot compile. The API lists live in data/unsupported.toml."""

from __future__ import annotations

import math

import libcst as cst

from jitlint.apis import unsupported
from jitlint.names import assigned_names, first_param_name
from jitlint.targets.script.literals import literal_type
from jitlint.targets.script.typing.annotations import named_params
from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from jitlint.targets.script import fixers
from jitlint.targets.script.rules import ScriptRule
from jitlint.targets.script import schemas
from jitlint.walk import walk
from jitlint.targets.script.facts import ScriptTypes
from jitlint.targets.script.typing.types import describe


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
    statement = next((a for a in reversed(ctx.ancestors) if isinstance(a, cst.SimpleStatementLine)), None)
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
        # With the export target enabled too, the TorchScript escape hatches are no advice: default-mode
        # torch.export traces `@torch.jit.ignore` bodies and `is_scripting()`-False branches, and rejects NumPy there
        # (verified on torch 2.13). Tensor-only code works for both.
        both = "export" in ctx.targets
        fix = fixers.numpy_round_trip(node, ctx) or (None if both else eager_helper_fix(ctx))
        if isinstance(func, cst.Attribute) and func.attr.value == "numpy" and not node.args:
            if both:
                text = ("`.numpy()` is not supported by TorchScript (script), nor by default torch.export (export), "
                        "even in a `@torch.jit.ignore` method or an `is_scripting()` branch; keep the value a Tensor")
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
        from jitlint.targets.script.rules.flow import results_for

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
                function, iterable = (ctx.code(a.value) for a in node.args)
                item = next(n for n in ("item", "item_", "element") if n not in function + iterable)
                comprehension = f"[{function}({item}) for {item} in {iterable}]"
                fix = PendingFix("use a list comprehension", [PendingEdit(node, comprehension)])
            ctx.report(node, fix=fix)


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
                       fix=fixers.guard_statement(node, ctx) if name == "setattr" else None)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # `id(x)` depends on the type of `x` (TorchScript's `prim::id` takes a class instance or None): the typer
        # finds the calls whose argument is known to be something else.
        from jitlint.targets.script.rules.flow import results_for

        for result in results_for(self, node, ctx):
            ctx.report(result.node, f"TorchScript's `id()` takes only an instance of a TorchScript class (or None), "
                                    f"and this is of type {result.type} (torch: \"Expected a value of type "
                                    "'Optional[AnyClassType]' for argument 'x'\"); compare the values themselves, or keep "
                                    "this out of compiled code")


class NoModuleIntrospection(ScriptRule):
    code = "JIT406"
    name = "no-module-introspection-in-forward"
    severity = "error"
    summary = "`self.parameters()`, `self.named_parameters()`, `self.buffers()` in compiled code (torch gives no line)"
    message = "module introspection in compiled code"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        name = _self_method_name(node, ctx)
        if name in unsupported("module-introspection"):
            ctx.report(
                node,
                f"`self.{name}()` cannot be compiled (TorchScript compiles it from torch's module.py and fails "
                f"there, with no line in your code); compute what you need in `__init__`",
            )
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
            ctx.report(node, fix=fixers.super_call(node, ctx))


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
            ctx.report(node, f"`{cls.name}.{method.name}(self, ...)` is not supported by TorchScript; call "
                             f"`self.{method.name}(...)` (rename the override if it shadows it)",
                       fix=fixers.call_through_self(node, method.name, ctx))


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
                       fix=fixers.guard_statement(node, ctx))


class NoAutogradTensorApi(ScriptRule):
    code = "JIT410"
    name = "no-autograd-tensor-api"
    severity = "error"
    summary = "`.register_hook()`, `.retain_grad()`, `.backward()`, `x.requires_grad = ...`"
    fix = "unsafe"
    message = "eager autograd API in compiled code"
    facts = (ScriptTypes,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        from jitlint.targets.script.rules.flow import results_for

        for result in results_for(self, node, ctx):  # an attribute set on a value that is no object
            ctx.report(result.node, f"TorchScript sets attributes only on class instances, and this is "
                                    f"{describe(result.type)} (torch: 'Tried to set an attribute: {result.name} on a "
                                    f"non-class: {result.type}'); keep the value in a variable of its own")

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in unsupported("autograd-method"):
            if ctx.qualify(func) is None and _self_method_name(node, ctx) is None:
                ctx.report(node, f"`.{func.attr.value}()` is eager autograd API that TorchScript does not support; "
                                 "move it into a `@torch.jit.ignore` method", fix=fixers.guard_statement(node, ctx))

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
            ctx.report(node, fix=fixers.print_without_keywords(node, ctx))


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
        from jitlint.targets.script.rules.flow import results_for

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
            ctx.report(node, fix=fixers.checkpoint_when_eager(node, ctx))


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
            ctx.report(node, f"`{qualified}()` is not supported by TorchScript", fix=fixers.isinstance_tensor(node, ctx))
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
    return name.value in _params_of(function) or name.value in assigned_names(function)


_TORCH_DTYPES = frozenset(
    "float float16 float32 float64 half double bfloat16 int int8 int16 int32 int64 long short uint8 bool "
    "complex64 complex128 cfloat cdouble".split()
)


def global_value_type(value: cst.BaseExpression, module_imports) -> str | None:
    """The Python type of a module-level value TorchScript rejects when compiled code reads the global."""
    kind = literal_type(value)
    if kind is not None:
        return kind.split("[")[0].lower()
    if isinstance(value, cst.Name) and value.value == "None":
        return "None"
    qualified = module_imports.qualify(value.func if isinstance(value, cst.Call) else value) or ""
    if isinstance(value, cst.Attribute) and qualified.startswith("torch.") and qualified[6:] in _TORCH_DTYPES:
        return "dtype"
    if isinstance(value, cst.Call) and qualified.startswith("torch.") and qualified.count(".") == 1 and qualified[6:7].islower():
        return "Tensor"
    return None


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
        from jitlint.targets.script.rules.flow import results_for, with_path

        for result in results_for(self, node, ctx):
            if result.use == "attribute" and isinstance(result.node, cst.Name) and (
                    _python_object_global(result.node, ctx) is not None):
                continue  # a method of a standard-library object (`log.info(...)`): JIT402 says what it is
            module_name, _, attribute = result.name.rpartition(".")
            other = ctx.project.module(module_name)
            value = other.globals.get(attribute) if other is not None else None
            kind = (global_value_type(value, other.imports) or _python_kind(value)) if value is not None else None
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
                fix = with_path(ctx, node, target, lambda: fixers.inline_constant(target, ctx))
            ctx.report(result.node, message, fix=fix)


def _python_kind(value: cst.BaseExpression) -> str | None:
    """The Python type of a module-level display or constructor call (`{"a"}` is a set, `np.array(...)` ...)."""
    displays = {cst.Set: "set", cst.SetComp: "set", cst.Dict: "dict", cst.DictComp: "dict", cst.List: "list",
                cst.ListComp: "list", cst.Tuple: "tuple", cst.Lambda: "function"}
    for display, kind in displays.items():
        if isinstance(value, display):
            return kind
    return None


class HasattrNameNotLiteral(ScriptRule):
    code = "JIT417"
    name = "hasattr-name-not-literal"
    severity = "error"
    summary = "`hasattr(obj, name)` whose second argument is not a string literal"
    message = "`hasattr` with a name that is not a string literal"
    facts = (ScriptTypes,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # `hasattr` of a value that has no attributes to ask for (only objects and NamedTuples do)
        from jitlint.targets.script.rules.flow import results_for

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


def _params_of(function: cst.FunctionDef) -> dict[str, cst.Param]:
    return {p.name.value: p for p in named_params(function.params)}

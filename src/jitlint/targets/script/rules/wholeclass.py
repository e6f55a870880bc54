"""JIT630-639: modules torch.jit.script rejects as a whole, before it compiles (or names) any line of them.

`torch.jit.script(module)` first calls `module.__prepare_scriptable__()` (on the module and, recursively, on its
submodules) and scripts what it returns; a class whose `__prepare_scriptable__` always raises cannot be scripted at
all, and torch names no line of the user's code (the error is the one the method raises).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import libcst as cst

from jitlint.facts.mro import linearization
from jitlint.facts.syntax import calls_in, returns_in
from jitlint.facts.torch_api import CONTAINER_KINDS
from jitlint.literals import UNKNOWN, literal_value
from jitlint.names import first_param_name
from jitlint.project import ClassInfo
from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from jitlint.targets.script.members import annotation_uncompilable_reason
from jitlint.targets.script.rules import ScriptRule

# Bases a module class may have that cannot define `__prepare_scriptable__` or the attributes it reads.
_INERT_BASE_PREFIXES = ("torch.", "typing.", "typing_extensions.", "abc.")
_INERT_BASES = frozenset({"builtins.object", "object"})


def _closed_mro(ctx: RuleContext, cls: ClassInfo) -> list[ClassInfo] | None:
    """The project classes in `cls`'s MRO, when every base of every one of them is a project class or an inert
    library base (torch's, typing's); None when a base is unknown (it could define the method or the attribute)."""
    order = ctx.project.mro(cls)
    for current in order:
        for base in current.base_names:
            if base is None:
                return None
            if base in _INERT_BASES or base.startswith(_INERT_BASE_PREFIXES):
                continue
            if ctx.project.resolve_class(base) is None:
                return None
    return order


class _Folder:
    """Folds the conditions of a `__prepare_scriptable__` on one concrete class: `self.NAME` reads a class
    attribute that no code of the class hierarchy's files assigns again (`self.NAME = ...`, `Cls.NAME = ...`,
    `setattr`), so torch's call sees the class body's literal."""

    def __init__(self, ctx: RuleContext, cls: ClassInfo, mro: list[ClassInfo], self_name: str) -> None:
        self.ctx = ctx
        self.cls = cls
        self.mro = mro
        self.self_name = self_name
        self.attributes = ctx.project.attributes(cls)

    def _attribute(self, name: str):
        info = self.attributes.get(name)
        if info is None or info.assigned_in or info.class_value is None:
            return UNKNOWN
        if any(current.dynamic_attributes for current in self.mro):
            return UNKNOWN
        rebinding = re.compile(rf"\.{re.escape(name)}\s*(?:=(?!=)|[-+*/|&]=)|setattr\(")
        for current in self.mro:
            text = current.module.text if current.module.text is not None else current.module.tree.code
            if rebinding.search(text):
                return UNKNOWN
        return literal_value(info.class_value)

    def value(self, node: cst.BaseExpression):
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) \
                and node.value.value == self.self_name:
            return self._attribute(node.attr.value)
        return literal_value(node)

    def truth(self, node: cst.BaseExpression) -> bool | None:
        """True/False when the condition's value is known, None otherwise."""
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            inner = self.truth(node.expression)
            return None if inner is None else not inner
        if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
            target = node.comparisons[0]
            if isinstance(target.operator, (cst.Is, cst.IsNot)) and isinstance(target.comparator, cst.Name) \
                    and target.comparator.value == "None":
                left = self.value(node.left)
                if left is UNKNOWN:
                    return None
                return (left is None) == isinstance(target.operator, cst.Is)
            return None
        value = self.value(node)
        return None if value is UNKNOWN else bool(value)


def _always_raises(statements, folder: _Folder) -> bool:
    """Does running these statements in order always end in a `raise` (no return before it)?"""
    for statement in statements:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Raise):
                    return True
                if isinstance(small, (cst.Return, cst.Global, cst.Nonlocal)):
                    return False
            continue
        if isinstance(statement, cst.If):
            verdict = folder.truth(statement.test)
            if verdict is None:
                return False
            if verdict:
                branch = statement.body.body
            elif isinstance(statement.orelse, cst.Else):
                branch = statement.orelse.body.body
            elif isinstance(statement.orelse, cst.If):
                branch = [statement.orelse]
            else:
                continue
            if _always_raises(branch, folder):
                return True
            if _may_leave(branch):
                return False
            continue
        return False  # a loop, a try, a with: not followed
    return False


def _may_leave(statements) -> bool:
    """Does a block contain a return (or anything that could end the method without raising)?"""

    class Find(cst.CSTVisitor):
        found = False

        def visit_Return(self, node: cst.Return) -> None:
            self.found = True

        def visit_Yield(self, node: cst.Yield) -> None:
            self.found = True

    finder = Find()
    for statement in statements:
        statement.visit(finder)
    return finder.found


class PrepareScriptableAlwaysRaises(ScriptRule):
    code = "JIT630"
    name = "prepare-scriptable-always-raises"
    severity = "error"
    summary = "a module class whose `__prepare_scriptable__` (own or inherited) always raises: it cannot be scripted"
    message = "`__prepare_scriptable__` always raises for this class, so torch.jit.script cannot script it"
    scope = "anywhere"
    outside_handlers = frozenset({"ClassDef"})
    whole_class = "any-error"  # the error is what the method raises
    reports_only_in = "module-class"
    checked_handlers = frozenset({("visit", "ClassDef")})

    def visit_ClassDef(self, node: cst.ClassDef, ctx: RuleContext) -> None:
        cls = ctx.module_class(node)
        if cls is None:
            return
        method = ctx.project.find_method(cls, "__prepare_scriptable__")
        if method is None or method.decorators or method.is_property:
            return
        mro = _closed_mro(ctx, cls)
        self_name = first_param_name(method.node)
        if mro is None or self_name is None:
            return
        body = method.node.body
        if not isinstance(body, cst.IndentedBlock):
            return
        if not _always_raises(body.body, _Folder(ctx, cls, mro, self_name)):
            return
        owner = method.cls.name if method.cls is not None else "a base class"
        where = "its own" if method.cls is cls else f"the one it inherits from `{owner}`"
        ctx.report(
            node.name,
            f"`{cls.name}` cannot be scripted: `torch.jit.script` first calls `__prepare_scriptable__()`, and "
            f"{where} always raises for this class (torch names no line); script a module whose "
            f"`__prepare_scriptable__` returns a scriptable module, or do not script this class",
        )


# -- JIT631: a module attribute annotated with a class torch cannot compile ---------------------------------------


def _has_own_annotations(cls: ClassInfo) -> bool:
    return any(info.annotation is not None for info in cls.own_attributes.values())


def _annotations_class(ctx: RuleContext, cls: ClassInfo) -> ClassInfo | None:
    """The class whose class-body annotations torch reads for a module of class `cls` (`get_annotations`: the
    nearest class of the MRO with annotations of its own, not merged), when it is a project class; None when it is
    torch's own (`nn.Module`'s) or not known."""
    order = linearization(ctx.project, cls)
    if order is None:
        # A base is unknown, but the first base always comes right after the class in the MRO.
        order = [cls]
        first = cls.base_names[0] if cls.base_names else None
        resolved = ctx.project.resolve_class(first) if first is not None else None
        if resolved is not None and resolved is not cls:
            order.append(resolved)
    for current in order:
        if isinstance(current, str):
            return None  # a torch class comes first: torch reads its annotations
        if _has_own_annotations(current):
            return current
    return None


class AnnotatedAttributeClassNotCompilable(ScriptRule):
    code = "JIT631"
    name = "annotated-attribute-class-not-compilable"
    severity = "error"
    summary = ("a module class that inherits a class annotation typing an attribute `__init__` sets with a "
               "dataclass (JIT608 flags the annotation): torch compiles that class for every subclass and fails")
    message = "torch compiles the class this attribute is annotated with, and cannot"
    scope = "anywhere"
    outside_handlers = frozenset({"ClassDef"})
    whole_class = "same-error"
    reports_only_in = "module-class"
    checked_handlers = frozenset({("visit", "ClassDef")})

    def visit_ClassDef(self, node: cst.ClassDef, ctx: RuleContext) -> None:
        cls = ctx.module_class(node)
        if cls is None:
            return
        forward = ctx.project.find_method(cls, "forward")
        if forward is None or ctx.captured.get(forward.node) is None:
            return
        if ctx.project.find_method(cls, "__prepare_scriptable__") is not None:
            return  # JIT630's business, or torch scripts another module
        owner = _annotations_class(ctx, cls)
        if owner is None or owner is cls:
            return  # JIT608 reports an annotation in the class torch scripts; this rule, each class inheriting one
        mro = ctx.project.mro(cls)
        if any("__jit_ignored_attributes__" in current.string_lists or
               "__jit_ignored_attributes__" in current.own_attributes for current in mro):
            return
        attributes = ctx.project.attributes(cls)
        for name, info in owner.own_attributes.items():
            if info.annotation is None or info.final:
                continue
            seen = attributes.get(name)
            if seen is None or "__init__" not in seen.assigned_in or seen.registered:
                continue
            if any(kind == "module" or kind in CONTAINER_KINDS.values() or str(kind).endswith("-of-modules")
                   for kind in seen.kinds):
                continue  # a submodule is in `_modules`, not in `__dict__`
            target = ctx.project.resolve_class(owner.module.imports.qualify(info.annotation))
            if target is None or ctx.project.is_module_class(target):
                continue

            reason = annotation_uncompilable_reason(target, ctx)
            if reason is None:
                continue
            ctx.report(
                node.name,
                f"`{cls.name}` cannot be scripted: it inherits `{name}: {target.name}` from `{owner.name}` and "
                f"`__init__` sets `self.{name}`, so torch compiles `{target.name}` as a TorchScript class, and it "
                f"cannot: {reason} (JIT608 flags the annotation); keep `{name}` out of the scripted module (list it "
                f"in `__jit_ignored_attributes__`, or store only the values `forward` needs as plain attributes)",
            )
            return


# -- JIT632: a compiled method behind a wrapper torch compiles -----------------------------------------------------

_WRAPS = frozenset({"functools.wraps", "functools.update_wrapper"})
def _returned_wrapper(function: cst.FunctionDef) -> cst.FunctionDef | None:
    """The function a decorator defines and returns (`def wrapper(...): ...` then `return wrapper`), with no
    `functools.wraps`/`update_wrapper` and no `__wrapped__` anywhere in the decorator, so `inspect.unwrap` (which
    torch applies to a method) stops at the wrapper."""
    body = function.body
    if not isinstance(body, cst.IndentedBlock):
        return None
    defined = {s.name.value: s for s in body.body if isinstance(s, cst.FunctionDef)}
    returned = [
        small.value.value
        for statement in body.body if isinstance(statement, cst.SimpleStatementLine)
        for small in statement.body
        if isinstance(small, cst.Return) and isinstance(small.value, cst.Name)
    ]
    if len(returned) != 1 or returned[0] not in defined:
        return None
    if len(returns_in(function)) != 1:
        return None  # another return (of the function itself, say) on some path
    return defined[returned[0]]



def _variable_signature(function: cst.FunctionDef) -> str | None:
    params = function.params
    if isinstance(params.star_arg, cst.Param):
        return f"*{params.star_arg.name.value}"
    if params.star_kwarg is not None:
        return f"**{params.star_kwarg.name.value}"
    for param in params.kwonly_params:
        if param.default is not None:
            return f"keyword-only `{param.name.value}` with a default"
    return None


class CompiledMethodWrapperTakesVarargs(ScriptRule):
    code = "JIT632"
    name = "compiled-method-wrapper-takes-varargs"
    severity = "error"
    summary = ("a decorator on `forward` (or an exported method) whose returned wrapper takes `*args`/`**kwargs` "
               "and carries no `functools.wraps`: torch compiles the wrapper")
    message = "torch compiles this wrapper in place of the method it decorates, and it takes a variable signature"
    fix = "unsafe"
    scope = "anywhere"
    outside_handlers = frozenset({"FunctionDef"})
    reports_only_in = "wrapper-factory"
    checked_handlers = frozenset({("visit", "FunctionDef")})

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        info = ctx.module.functions.get(node.name.value)
        if info is None or info.node is not node:
            return  # only module-level decorator functions
        wrapper = _returned_wrapper(node)
        if wrapper is None or "__wrapped__" in ctx.module.tree.code_for_node(node):
            return
        imports = ctx.module.imports
        for decorator in wrapper.decorators:
            expression = decorator.decorator
            if imports.qualify(expression.func if isinstance(expression, cst.Call) else expression) in _WRAPS:
                return
        if any(isinstance(call.func, (cst.Name, cst.Attribute)) and imports.qualify(call.func) in _WRAPS
               for call in calls_in(node)):
            return
        variable = _variable_signature(wrapper)
        if variable is None:
            return
        use = self._compiled_use(info, ctx)
        if use is None:
            return
        ctx.report(
            wrapper.name,
            f"`@{node.name.value}` decorates `{use}`, which torch compiles: the wrapper it returns has no "
            f"`__wrapped__` (no `functools.wraps`), so torch compiles the wrapper itself, and it takes {variable} "
            f"('Compiled functions can't take variable number of arguments'); decorate the wrapper with "
            f"`@functools.wraps(...)` (torch then compiles the original method) or give it the method's signature",
            fix=wraps_the_method(node, wrapper, ctx),
        )

    @staticmethod
    def _compiled_use(decorator, ctx: RuleContext) -> str | None:
        """`Class.method` of a compiled method (`forward` of a module class, or `@torch.jit.export`) whose
        outermost decorator (past torch's own) is this one, in any file of the run: the capture map records it
        (`ScriptPolicy.decorated_by`), and workers and the cache pass it on like a call."""
        uses = ctx.captured.decorations(decorator.node)
        return uses[0].caller_name if uses else None


# -- JIT635: a submodule carrying a forward pre-hook object (the hook-based weight_norm, spectral_norm) ----------

# `torch.nn.utils.weight_norm` and `spectral_norm` (not `torch.nn.utils.parametrizations`' versions, which script)
# register an instance of a class (`WeightNorm`, `SpectralNorm`) as a forward pre-hook of the module they wrap.
# Scripting a module names every hook of it and of each submodule by `hook.__name__` (`torch/jit/_recursive.py`,
# `get_hook_stubs`), which an instance lacks: AttributeError, no line of the user's code.
_HOOK_OBJECT_WRAPPERS = {
    "torch.nn.utils.weight_norm": "WeightNorm", "torch.nn.utils.weight_norm.weight_norm": "WeightNorm",
    "torch.nn.utils.spectral_norm": "SpectralNorm", "torch.nn.utils.spectral_norm.spectral_norm": "SpectralNorm",
}
_HOOK_ADVICE = {
    "WeightNorm": "use `torch.nn.utils.parametrizations.weight_norm` (it scripts), or call `remove_weight_norm` on "
                  "the submodule before scripting",
    "SpectralNorm": "call `torch.nn.utils.remove_spectral_norm` on the submodule before scripting (the "
                    "parametrization-based `spectral_norm` does not script either)",
}
_HOOK_REMOVERS = frozenset({"torch.nn.utils.remove_weight_norm", "torch.nn.utils.weight_norm.remove_weight_norm",
                            "torch.nn.utils.remove_spectral_norm", "torch.nn.utils.spectral_norm.remove_spectral_norm"})


def _wrapper_calls(value: cst.BaseExpression, imports) -> list[tuple[cst.Call, str]]:
    """The hook-registering calls that always run when `value` is evaluated and whose module ends up in it: `value`
    itself, or an argument (at any depth) of the calls building it; not under a conditional expression, a lambda or
    a comprehension (which may run it for no element)."""
    if isinstance(value, cst.Call):
        hook = _HOOK_OBJECT_WRAPPERS.get(imports.qualify(value.func) or "")
        if hook is not None:
            return [(value, hook)]
        found = []
        for argument in value.args:
            if not argument.star:
                found += _wrapper_calls(argument.value, imports)
        return found
    if isinstance(value, (cst.List, cst.Tuple)):
        return [call for element in value.elements if isinstance(element, cst.Element)
                for call in _wrapper_calls(element.value, imports)]
    return []


class HookObjectSubmodule(ScriptRule):
    code = "JIT635"
    name = "hook-object-submodule"
    severity = "error"
    summary = ("a module class whose `__init__` always wraps a submodule with the hook-based "
               "`torch.nn.utils.weight_norm`/`spectral_norm`: torch cannot name the hook object and rejects the class")
    message = "this submodule carries a pre-hook object torch.jit.script cannot name"
    scope = "anywhere"
    outside_handlers = frozenset({"ClassDef"})
    whole_class = "same-error"  # torch raises while it collects the hooks, before it compiles any line
    reports_only_in = "module-class"
    checked_handlers = frozenset({("visit", "ClassDef")})

    def visit_ClassDef(self, node: cst.ClassDef, ctx: RuleContext) -> None:
        cls = ctx.module_class(node)
        if cls is None:
            return
        imports = ctx.module.imports
        if any(imports.qualify(call.func) in _HOOK_REMOVERS for method in cls.methods.values()
               for call in calls_in(method.node)):
            return
        self_name = first_param_name(cls.methods["__init__"].node) if "__init__" in cls.methods else None
        for small in _always_run_in_scripted_init(cls, ctx):
            found = self._stored(small, cls, self_name, imports)
            if found:
                call, hook = found[0]
                ctx.report(call, f"`{imports.qualify(call.func)}` registers a `{hook}` object as a forward "
                                 f"pre-hook, and torch.jit.script names each hook by its `__name__`, which an "
                                 f"object lacks (torch: \"'{hook}' object has no attribute '__name__'\"), so "
                                 f"`{cls.name}` cannot be scripted; " + _HOOK_ADVICE[hook])
                return

    @staticmethod
    def _stored(small: cst.BaseSmallStatement, cls: ClassInfo, self_name: str | None,
                imports) -> list[tuple[cst.Call, str]]:
        """The wrapping calls of `self.x = <value>` whose module `value` holds, or of a bare `weight_norm(self.x)`."""
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(
                target := small.targets[0].target, cst.Attribute) and isinstance(target.value, cst.Name) and (
                target.value.value == self_name):
            info = cls.own_attributes.get(target.attr.value)
            # the last value `__init__` stores there, and no other method stores one: a later value replaces it
            if info is None or not info.init_values or info.init_values[-1].node is not small.value or (
                    info.assigned_in != frozenset({"__init__"})):
                return []
            return _wrapper_calls(small.value, imports)
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call) and small.value.args:
            first = small.value.args[0].value
            if (isinstance(first, cst.Attribute) and isinstance(first.value, cst.Name)
                    and first.value.value == self_name and not small.value.args[0].keyword):
                return [(small.value, hook) for call, hook in _wrapper_calls(small.value, imports)
                        if call is small.value]
        return []


# -- fixes ----------------------------------------------------------------------------------------------------


def wraps_the_method(decorator: cst.FunctionDef, wrapper: cst.FunctionDef, ctx: RuleContext) -> PendingFix | None:
    """`def wrapper(self, *args, **kwargs):` returned by a top-level decorator `def logged(func):` -> decorated
    `@functools.wraps(func)`, so that torch compiles the method itself. Unsafe: the scripted module skips whatever
    the wrapper adds around the call (eager Python still runs it), and the wrapper now carries the method's
    `__name__`, `__doc__` and signature. Only when the decorator takes the function as its one parameter, the
    wrapper is defined directly in its body, and `functools` can be imported next to the module's imports."""
    params = decorator.params
    if (len(params.params) != 1 or isinstance(params.star_arg, (cst.Param, cst.ParamStar)) or params.kwonly_params
            or params.star_kwarg is not None or params.posonly_params):
        return None
    if not isinstance(decorator.body, cst.IndentedBlock) or wrapper not in decorator.body.body:
        return None
    if decorator not in ctx.module.tree.body:
        return None
    name = next((local for local, target in ctx.module.imports.aliases.items() if target == "functools"), None)
    edits = []
    if name is None:
        body = ctx.module.tree.body
        imports = [s for s in body if isinstance(s, cst.SimpleStatementLine)
                   and all(isinstance(small, (cst.Import, cst.ImportFrom)) for small in s.body)]
        name = "functools"
        first = next((s for s in imports if not any(isinstance(small, cst.ImportFrom) and small.module is not None
                                                     and ctx.code(small.module) == "__future__" for small in s.body)), None)
        if first is None:
            return None
        edits.append(PendingEdit(first, "import functools\n", insert_before=True))
    indent = decorator.body.indent if decorator.body.indent is not None else ctx.module.tree.default_indent
    edits.append(PendingEdit(wrapper, f"@{name}.wraps({params.params[0].name.value})\n{indent}", insert_before=True))
    return PendingFix(f"decorate the wrapper with `@{name}.wraps(...)`", edits)


# `torch.nn.LazyLinear`, `torch.nn.modules.conv.LazyConv2d`, ...: modules whose parameters (and buffers) stay
# uninitialized until their first forward pass.
_LAZY_MODULE = re.compile(r"^torch\.nn\.(?:modules\.\w+\.)?Lazy\w+$")
_UNINITIALIZED = {"torch.nn.parameter.UninitializedParameter": "parameters",
                  "torch.nn.UninitializedParameter": "parameters",
                  "torch.nn.parameter.UninitializedBuffer": "buffers",
                  "torch.nn.UninitializedBuffer": "buffers"}


def _always_run_in_scripted_init(cls: ClassInfo, ctx: RuleContext) -> Iterator[cst.BaseSmallStatement]:
    """The small statements a module class's `__init__` always runs, in order, up to the first that may leave it,
    when torch.jit.script compiles the class: it has an `__init__` and a captured `forward`, and no
    `__prepare_scriptable__` (torch scripts what that returns instead)."""
    init, forward = cls.methods.get("__init__"), ctx.project.find_method(cls, "forward")
    if init is None or forward is None or ctx.captured.get(forward.node) is None:
        return
    if ctx.project.find_method(cls, "__prepare_scriptable__") is not None:
        return
    body = init.node.body
    if not isinstance(body, cst.IndentedBlock):
        return
    for statement in body.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            if _may_leave([statement]):
                return
            continue
        for small in statement.body:
            if isinstance(small, (cst.Return, cst.Raise)):
                return
            yield small


class LazySubmodule(ScriptRule):
    code = "JIT639"
    name = "uninitialized-lazy-state"
    severity = "error"
    summary = ("a scripted module class whose `__init__` always creates a lazy module (`nn.LazyLinear`, ...) or an "
               "`UninitializedParameter`/`UninitializedBuffer`: uninitialized until a forward pass, which "
               "torch.jit.script refuses")
    message = "uninitialized lazy state, which torch.jit.script refuses before a forward pass"
    scope = "anywhere"
    outside_handlers = frozenset({"ClassDef"})
    whole_class = "same-error"  # torch raises while it builds the module's type, before it compiles any line
    reports_only_in = "module-class"
    checked_handlers = frozenset({("visit", "ClassDef")})

    def visit_ClassDef(self, node: cst.ClassDef, ctx: RuleContext) -> None:
        cls = ctx.module_class(node)
        if cls is None:
            return
        imports = ctx.module.imports
        for small in _always_run_in_scripted_init(cls, ctx):
            for call in calls_in(small):
                qualified = imports.qualify(call.func)
                if qualified is None:
                    continue
                if _LAZY_MODULE.match(qualified):
                    what = f"`{qualified.rsplit('.', 1)[-1]}` is a lazy module"
                    said = "has uninitialized parameters weight"
                elif qualified in _UNINITIALIZED:
                    what = f"`{qualified.rsplit('.', 1)[-1]}` holds no value yet"
                    said = f"has uninitialized {_UNINITIALIZED[qualified]}"
                else:
                    continue
                ctx.report(call, (
                    f"{what}: its shape is set by the first forward pass, and torch.jit.script refuses a module "
                    f"that still holds it (torch: \"'...' {said}... Did you forget to run a forward pass?\"); "
                    f"give the sizes and use the eager class (`nn.Linear(in_features, ...)`), or run a forward "
                    f"pass before scripting"))
                return

"""JIT6xx: module attributes and classes TorchScript cannot type or compile."""

from __future__ import annotations

import libcst as cst

from jitlint.facts.torch_api import CONTAINER_KINDS
from jitlint.names import first_param_name
from jitlint.project import ClassInfo
from jitlint.rules.base import PendingEdit, PendingFix, RuleContext
from jitlint.targets.script.claims import results_for
from jitlint.targets.script.facts import ScriptTypes
from jitlint.targets.script.literals import global_value_type
from jitlint.targets.script.members import (
    METHOD_VALUE_ERRORS, guarded_by_hasattr, module_owners,
    resolved_method, self_attribute_load, self_attribute_name,
)
from jitlint.targets.script.policy import constant_attribute, constant_names
from jitlint.targets.script.rules import ScriptRule
from jitlint.targets.script.typing.analysis import function_types
from jitlint.targets.script.typing.casts import uncastable_attribute
from jitlint.targets.script.typing.frontend_names import PYTHON_BUILTIN_FUNCTIONS
from jitlint.targets.script.typing.types import Type
from jitlint.targets.script.typing.types import annotation as annotation_of
from jitlint.walk import walk
from jitlint.wording import a

# Attributes every nn.Module has (set by nn.Module.__init__).
_MODULE_ATTRIBUTES = frozenset({"training"})


class AttributeSetOutsideInit(ScriptRule):
    code = "JIT601"
    name = "attr-set-in-forward-not-in-init"
    severity = "error"
    summary = "`self.x = ...` in compiled code when `__init__` never sets it"
    message = "attribute first set in compiled code"

    def visit_AssignTarget(self, node: cst.AssignTarget, ctx: RuleContext) -> None:
        name = self_attribute_name(node.target, ctx)
        owners = module_owners(ctx)
        if name is None or not owners or name in _MODULE_ATTRIBUTES:
            return
        if all(_starts_empty(ctx.project.attributes(owner).get(name)) for owner in owners):
            ctx.report(node.target, f"`self.{name}` is set here, but `__init__` leaves it an empty list or dict, whose "
                                    f"type TorchScript cannot infer, so the scripted module has no `{name}` ('Tried "
                                    f"to set nonexistent attribute'); declare its type at class level "
                                    f"(`{name}: List[int]`)")
            return
        for owner in owners:
            method = ctx.project.find_method(owner, name)
            if method is not None and (method.is_property or method.shadows is not None):
                return  # a property: torch calls its setter (the typer checks the value), or has none
            if not self._only_set_in_compiled_code(owner, name, ctx):
                return
        ctx.report(node.target, f"`self.{name}` is set here but never in `__init__`; TorchScript only knows the "
                                f"attributes that exist when the module is scripted. Initialise it in `__init__` "
                                f"(for a Tensor, `self.register_buffer(\"{name}\", torch.zeros(...))`)")

    @staticmethod
    def _only_set_in_compiled_code(owner: ClassInfo, name: str, ctx: RuleContext) -> bool:
        project = ctx.project
        mro = project.mro(owner)
        if any(cls.dynamic_attributes for cls in mro):
            return False
        if project.torch_bases(owner) - {"torch.nn.Module"}:
            return False  # a torch base class such as nn.Linear defines attributes jitlint does not see
        info = project.attributes(owner).get(name)
        if info is None:
            return True
        if info.registered or info.class_value is not None or info.annotation is not None:
            return False
        for method_name in info.assigned_in:
            method = project.find_method(owner, method_name)
            compiled = ctx.captured.get(method.node) if method is not None else None
            if compiled is None or not compiled.body_captured:
                return False
        return True


def _empty_display(node: cst.BaseExpression, info) -> bool:
    if isinstance(node, (cst.List, cst.Dict)) and not node.elements:
        return True
    if isinstance(node, cst.Call) and len(node.args) == 2:
        annotate = node.func
        if isinstance(annotate, cst.Attribute) and annotate.attr.value == "annotate":
            return _empty_display(node.args[1].value, info)
    if isinstance(node, cst.Call) and not node.args and isinstance(node.func, cst.Name):
        return node.func.value in ("list", "dict")
    return False


def _starts_empty(info) -> bool:
    """`__init__` gives the attribute only empty lists or dicts (`[]`, `torch.jit.annotate(List[int], [])`) and
    nothing types it: torch cannot infer the type, and the scripted module has no such attribute (verified on 2.13,
    also with `self.x: List[int] = []` in `__init__`)."""
    if info is None or info.registered or info.annotation is not None or info.class_value is not None:
        return False
    if info.filled_in_init or not info.init_values or "__init__" not in info.assigned_in:
        return False
    return all(_empty_display(value.node, info) for value in info.init_values)


class _AttributeValueRule(ScriptRule):
    """An attribute whose value TorchScript cannot convert, read by compiled code (conversion errors are lazy:
    an attribute compiled code never reads is fine)."""

    bad_kinds: frozenset[str]

    def visit_Attribute(self, node: cst.Attribute, ctx: RuleContext) -> None:
        found = self_attribute_load(node, ctx)
        if found is None or not module_owners(ctx):
            return
        name, info = found
        # The value torch converts is the one the module has when scripted: what `__init__` assigns, when it
        # assigns the attribute (another method may reset it later, like a `switch_to_deploy()`).
        kinds = info.init_kinds or info.kinds
        if kinds & self.bad_kinds and kinds <= self.bad_kinds | {"none"} and not self.excused(name, ctx):
            ctx.report(node, self.explain(name, kinds & self.bad_kinds), fix=self.build_fix(name, ctx))

    def excused(self, name: str, ctx: RuleContext) -> bool:
        return False

    def build_fix(self, name: str, ctx: RuleContext) -> PendingFix | None:
        return None

    def explain(self, name: str, kinds: set[str]) -> str:
        raise NotImplementedError


class AttributeEmptyContainer(_AttributeValueRule):
    facts = (ScriptTypes,)
    code = "JIT602"
    name = "attr-empty-container"
    severity = "error"
    summary = "an attribute that starts as `[]`/`{}` without a class-level annotation"
    fix = "safe"
    message = "empty list or dict attribute without a class-level annotation"
    bad_kinds = frozenset({"empty-container"})

    def excused(self, name: str, ctx: RuleContext) -> bool:
        found = ctx.attribute_named(name)
        if found is not None and found.filled_in_init:
            return True  # not empty by the time the module is scripted
        # A class-level annotation (`dims: List[int]`) types it; one inside __init__ does not (verified on 2.13).
        return any((info := ctx.project.attributes(owner).get(name)) is not None and info.annotation is not None
                   for owner in module_owners(ctx))

    def explain(self, name: str, kinds: set[str]) -> str:
        return (f"`self.{name}` starts empty, so TorchScript cannot infer its element type; annotate it at class "
                f"level (`{name}: List[int]`), since an annotation on the `self.{name} = []` line is not enough")

    def build_fix(self, name: str, ctx: RuleContext) -> PendingFix | None:
        """When every `self.<name>.append(v)` shows the element type, declare `name: list[T]` at class level.
        Safe: an annotation changes nothing in eager mode."""
        owners = [o for o in module_owners(ctx) if o.node in ctx.module.tree.body]
        torch = ctx.torch_name
        if len(owners) != 1 or torch is None:
            return None
        owner = owners[0]
        types = set()
        for method in owner.methods.values():
            appended = _appended(method.node, name)
            compiled = ctx.captured.get(method.node)
            if not appended:
                continue
            if compiled is None or not compiled.body_captured:
                return None  # appended where torch compiles nothing: the type is not the typer's to say
            typed = function_types(ctx, method.node).types
            for argument in appended:
                value = typed.get(id(argument))
                types.add(annotation_of(value, tensor=f"{torch}.Tensor") if isinstance(value, Type) and
                          value.fully_known else None)
        if len(types) != 1 or None in types:
            return None
        annotation = f"{name}: list[{types.pop()}]"
        body = owner.node.body.body
        indent = owner.node.body.indent or ctx.module.tree.default_indent
        first = body[0]
        is_docstring = (isinstance(first, cst.SimpleStatementLine) and isinstance(first.body[0], cst.Expr)
                        and isinstance(first.body[0].value, (cst.SimpleString, cst.ConcatenatedString)))
        if is_docstring:
            edit = PendingEdit(first, f"\n{indent}{annotation}", insert_after=True)
        else:
            edit = PendingEdit(first, f"{annotation}\n{indent}", insert_before=True)
        return PendingFix(f"declare `{annotation}` in `{owner.name}`", [edit])


class AttributeUnconvertibleValue(_AttributeValueRule):
    code = "JIT603"
    name = "attr-unconvertible-value"
    severity = "error"
    summary = ("an attribute holding a lambda, a mixed-type list, `object()`, a builtin class (`float`) or function "
               "(`print`), a `functools.partial`, a bound method, or a value its class-level annotation cannot hold")
    message = "attribute value TorchScript cannot convert"
    bad_kinds = frozenset({"lambda", "mixed-list", "object", "python-type"})
    facts = (ScriptTypes,)

    _REASONS = {"set": ("a set", "set"), "ndarray": ("a NumPy value", "numpy.ndarray"),
                "generator": ("a generator", "generator"), "mixed-dict": ("a dict whose keys or values have several "
                                                                          "types", "dict"),
                "list-element": ("a list of values TorchScript cannot type", "list")}

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # the values the typer finds `__init__` stores that torch cannot convert (sets, NumPy values, mixed dicts ...)

        for result in results_for(self, node, ctx):
            what, python_type = self._REASONS.get(result.reason, ("a Python value", "..."))
            ctx.report(result.node, f"`self.{result.name}` holds {what} after `__init__`, which TorchScript cannot "
                                    f"convert (torch: \"Module has no attribute '{result.name}' (This attribute exists "
                                    f"on the Python module, but we failed to convert Python type: '{python_type}' to a "
                                    f"TorchScript type\"); store a Tensor, a list or a dict of one type instead")

    def explain(self, name: str, kinds: set[str]) -> str:
        what = {"lambda": "a lambda", "mixed-list": "a list mixing types", "object": "a plain `object()`",
                "python-type": "a Python class (a `type`)"}[sorted(kinds)[0]]
        return (f"`self.{name}` holds {what}, which TorchScript cannot convert; use an nn.Module (or a module-level "
                f"function) for callables, and one element type per list")

    def visit_Attribute(self, node: cst.Attribute, ctx: RuleContext) -> None:
        before = len(ctx.findings)
        super().visit_Attribute(node, ctx)
        if len(ctx.findings) == before:
            self._check_callable_object(node, ctx)
        found = self_attribute_load(node, ctx) if len(ctx.findings) == before else None
        kind = uncastable_attribute(ctx.project, module_owners(ctx), found[0], ctx.function.owners) if found else None
        if kind is not None:  # torch casts the value `__init__` leaves to the annotation when it builds the module
            ctx.report(node, f"`self.{found[0]}` is annotated `{kind}` at class level, and the value `__init__` "
                             f"gives it does not convert to that type (torch: \"Could not cast attribute '{found[0]}' "
                             f"to type {kind}\"); make the value fit the annotation, or annotate what it holds")

    def _check_callable_object(self, node: cst.Attribute, ctx: RuleContext) -> None:
        """`self.act` that `__init__` sets, on every path, to a `functools.partial` or to a bound method of the
        module (`self.act = self._gelu`): torch converts neither ("failed to convert Python type:
        'functools.partial'", "... 'method'"), and fails where compiled code reads the attribute. A staticmethod
        stored so is a plain function, which torch compiles; `hasattr(self, "act")` is folded to False."""

        found = self_attribute_load(node, ctx)
        owners = module_owners(ctx)
        if found is None or not owners or len(owners) != len(ctx.function.owners):
            return
        name = found[0]
        whats: set[str] = set()
        for owner in owners:
            info = ctx.project.attributes(owner).get(name)
            if info is None or info.annotation is not None or info.class_value is not None or info.registered:
                return
            if info.assigned_in != {"__init__"} or not info.init_values:
                return  # another method (or a setattr) may store something else before scripting
            for value in info.init_values:
                what = _callable_object(value.node, value.imports, owner, ctx)
                if what is None:
                    return
                whats |= what
        if guarded_by_hasattr(name, ctx):
            return
        spelled = " or ".join(sorted(whats))
        ctx.report(node, f"`self.{name}` holds {spelled}, which TorchScript cannot convert (torch: \"Module '...' has "
                         f"no attribute '{name}' (This attribute exists on the Python module, but we failed to convert "
                         f"Python type ...\"); store an nn.Module (or a module-level function) instead, or call the "
                         "method directly")


def _callable_object(value: cst.BaseExpression, imports, owner: ClassInfo, ctx: RuleContext) -> set[str] | None:
    """What `__init__` stores when torch cannot convert it: a `functools.partial(...)`, or `self.<method>` naming
    a method of the class that binds (not a staticmethod, not a property); for an if-expression, both branches.
    None when it may be anything else."""
    if isinstance(value, cst.IfExp):
        body = _callable_object(value.body, imports, owner, ctx)
        orelse = _callable_object(value.orelse, imports, owner, ctx)
        return body | orelse if body is not None and orelse is not None else None
    if isinstance(value, cst.Call) and imports.qualify(value.func) == "functools.partial":
        return {"a `functools.partial`"}
    builtin = (imports.qualify(value) or "").partition("builtins.")[2] if isinstance(value, cst.Name) else ""
    if builtin in PYTHON_BUILTIN_FUNCTIONS:
        return {f"Python's builtin function `{builtin}`"}
    if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == "self":
        init = ctx.project.find_method(owner, "__init__")
        if init is None or first_param_name(init.node) != "self":
            return None
        method = resolved_method(value.attr.value, owner, ctx)
        if method is None or method.is_property or "builtins.staticmethod" in method.decorators:
            return None
        if frozenset(method.decorators) not in METHOD_VALUE_ERRORS:
            return None
        return {f"a bound method (`self.{value.attr.value}`)"}
    return None


class FinalReassigned(ScriptRule):
    code = "JIT604"
    name = "final-reassigned"
    severity = "error"
    summary = "a `Final`/`__constants__` attribute assigned in compiled code"
    message = "constant attribute assigned in compiled code"

    def visit_AssignTarget(self, node: cst.AssignTarget, ctx: RuleContext) -> None:
        name = self_attribute_name(node.target, ctx)
        if name is None:
            return
        found = ctx.self_attribute(node.target)
        if found is not None and constant_attribute(name, ctx):
            ctx.report(node.target, f"`self.{name}` is a constant (`Final` or `__constants__`), so compiled code cannot "
                                    "assign it; make it a plain attribute if it changes")


class ConstantsInvalidType(ScriptRule):
    code = "JIT605"
    name = "constants-invalid-type"
    severity = "error"
    summary = "a dict or set in a `Final`/`__constants__` attribute"
    fix = "safe"
    scope = "anywhere"
    message = "constant attribute of a type TorchScript constants cannot hold"
    reports_only_in = "module-class"
    checked_handlers = frozenset({("visit", "ClassDef")})

    def visit_ClassDef(self, node: cst.ClassDef, ctx: RuleContext) -> None:
        cls = ctx.module_class(node)
        if cls is None:
            return
        init = cls.methods.get("__init__")
        attributes = ctx.project.attributes(cls)
        if init is None:
            return
        for statement in init.node.body.body:
            if not isinstance(statement, cst.SimpleStatementLine):
                continue
            for small in statement.body:
                if isinstance(small, cst.Assign) and isinstance(small.value, (cst.Dict, cst.DictComp, cst.Set, cst.SetComp)):
                    for target in small.targets:
                        if isinstance(target.target, cst.Attribute) and isinstance(target.target.value, cst.Name):
                            info = attributes.get(target.target.attr.value)
                            if info is not None and target.target.attr.value in constant_names(ctx.project, cls):
                                kind = "dict" if isinstance(small.value, (cst.Dict, cst.DictComp)) else "set"
                                ctx.report(small.value, f"`{cls.name}.{target.target.attr.value}` is a constant "
                                           f"(`Final`/`__constants__`) but holds {a(kind)}, which is not a valid "
                                           "TorchScript constant (torch names no line); use a tuple, or a plain "
                                           "attribute with a class-level `Dict[...]` annotation",
                                           fix=drop_from_constants(target.target.attr.value, node, ctx))


def _literal_class_value(value: cst.BaseExpression | None, ctx: RuleContext) -> str | None:
    return global_value_type(value, ctx.module.imports) if value is not None else None


class ClassLevelAttribute(ScriptRule):
    code = "JIT606"
    name = "class-level-attribute"
    severity = "error"
    summary = "a plain class attribute read through `self`"
    fix = "safe"
    message = "class attribute read through self in compiled code"

    def visit_Attribute(self, node: cst.Attribute, ctx: RuleContext) -> None:
        found = self_attribute_load(node, ctx)
        owners = module_owners(ctx)
        if found is None or not owners:
            return
        name = found[0]
        kinds = set()
        for owner in owners:
            info = ctx.project.attributes(owner).get(name)
            if info is None or name in constant_names(ctx.project, owner) or info.assigned_in or info.registered:
                return
            kind = _literal_class_value(info.class_value, ctx)
            if kind is None:
                return
            kinds.add(kind)
        fix = None
        if len(owners) == 1 and len(kinds) == 1:
            owner = owners[0] if owners[0].module is ctx.module else None  # edits are positions in this file
            fix = final_class_attribute(name, next(iter(kinds)), owner.node if owner else None, ctx)
        ctx.report(node, f"`{name}` is a class attribute ({sorted(kinds)[0]}); TorchScript only sees instance "
                         f"attributes and constants. Add it to `__constants__` (or annotate it `Final`), or set "
                         f"`self.{name}` in `__init__`", fix=fix)


_MODULE_LIKE = frozenset({"none", "module"}) | frozenset(CONTAINER_KINDS.values())


class NoneModuleTruthiness(ScriptRule):
    code = "JIT607"
    name = "none-module-truthiness"
    severity = "error"
    summary = "`if self.norm:` on a module-or-None attribute"
    fix = "safe"
    message = "truth test of an optional submodule"

    def visit_If(self, node: cst.If, ctx: RuleContext) -> None:
        self._test(node.test, ctx)

    def visit_While(self, node: cst.While, ctx: RuleContext) -> None:
        self._test(node.test, ctx)

    def visit_IfExp(self, node: cst.IfExp, ctx: RuleContext) -> None:
        self._test(node.test, ctx)

    def _test(self, test: cst.BaseExpression, ctx: RuleContext, negation: cst.UnaryOperation | None = None) -> None:
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            self._test(test.expression, ctx, test)
        elif isinstance(test, cst.BooleanOperation):
            self._test(test.left, ctx)
            self._test(test.right, ctx)
        else:
            found = ctx.self_attribute(test)
            if found is not None and found[1].kinds and found[1].kinds <= _MODULE_LIKE:
                name = found[0]
                fix = None
                if found[1].kinds <= {"none", "module"}:  # a plain module is always truthy: `is not None` is the same
                    target, test_code = (negation, "is None") if negation is not None else (test, "is not None")
                    fix = PendingFix(f"test `{test_code}`", [PendingEdit(target, f"{ctx.code(test)} {test_code}")])
                ctx.report(test, f"`self.{name}` holds a module or None, which TorchScript cannot convert to bool; "
                                 f"test `self.{name} is not None`", fix=fix)


def _appended(function: cst.FunctionDef, name: str) -> list[cst.BaseExpression]:
    """The values a method appends to `self.<name>`."""
    self_name = first_param_name(function)
    if self_name is None:
        return []
    found: list[cst.BaseExpression] = []

    class Appends(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if (
                isinstance(func, cst.Attribute) and func.attr.value == "append" and len(node.args) == 1
                and isinstance(func.value, cst.Attribute) and func.value.attr.value == name
                and isinstance(func.value.value, cst.Name) and func.value.value.value == self_name
            ):
                found.append(node.args[0].value)

    walk(function.body, Appends())
    return found


class NoModuleInternals(ScriptRule):
    code = "JIT619"
    name = "no-module-internals"
    severity = "error"
    summary = ("`self._modules`, `self._parameters`, `self._buffers`, or an attribute named `self.__x`, in compiled "
               "code")
    message = "nn.Module's internal dicts are not module attributes in TorchScript"
    INTERNALS = frozenset({"_modules", "_parameters", "_buffers"})

    def visit_Attribute(self, node: cst.Attribute, ctx: RuleContext) -> None:
        name = self_attribute_name(node, ctx)
        owners = module_owners(ctx)
        if name is None or not owners or len(owners) != len(ctx.function.owners):
            return
        if name.startswith("__") and all(ctx.project.attributes(owner).get(name) is not None and
                                         ctx.project.find_method(owner, name) is None for owner in owners):
            # Python stores `self.__x` as `_Cls__x`, which the frontend does not mangle back; torch leaves every
            # instance attribute whose stored name starts with `__` out of the type (`infer_concrete_type_builder`)
            why = ("torch leaves attributes named `__...` out of the module" if name.endswith("__") else
                   f"Python stores it as `_{owners[0].name}{name}` and torch looks for `{name}`")
            ctx.report(node, f"`self.{name}` is not an attribute of the scripted module: {why} (torch: \"Module "
                             f"'{owners[0].name}' has no attribute '{name}'\"); name it with one underscore "
                             f"(`self._{name.strip('_')}`)")
            return
        if name not in self.INTERNALS:
            return
        if any(ctx.project.attributes(owner).get(name) is not None for owner in owners):
            return  # the class assigns or declares it itself
        ctx.report(node, f"`self.{name}` is nn.Module's Python-side storage, which TorchScript does not expose "
                         f"(torch: \"Module '...' has no attribute '{name}'\"); iterate an `nn.ModuleList` or "
                         f"`nn.Sequential`, or name the submodules, parameters or buffers")


# -- fixes ----------------------------------------------------------------------------------------------------


_FINAL_KINDS = {"int": "int", "float": "float", "bool": "bool", "str": "str"}


def final_class_attribute(name: str, kind: str, owner_node: cst.ClassDef | None, ctx: RuleContext) -> PendingFix | None:
    """`scale = 2.0` in the class body -> `scale: torch.jit.Final[float] = 2.0`, which torch reads as a constant of
    the module. Safe: at run time the annotation changes nothing."""
    torch = ctx.torch_name
    if owner_node is None or torch is None or kind not in _FINAL_KINDS or not isinstance(owner_node.body, cst.IndentedBlock):
        return None
    for statement in owner_node.body.body:
        if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1:
            small = statement.body[0]
            if (isinstance(small, cst.Assign) and len(small.targets) == 1
                    and isinstance(small.targets[0].target, cst.Name) and small.targets[0].target.value == name):
                content = f"{name}: {torch}.jit.Final[{_FINAL_KINDS[kind]}] = {ctx.code(small.value)}"
                return PendingFix(f"annotate `{name}` Final (a constant of the module)", [PendingEdit(small, content)])
    return None


def drop_from_constants(name: str, cls: cst.ClassDef, ctx: RuleContext) -> PendingFix | None:
    """JIT605: `__constants__ = ["cfg"]` -> `__constants__ = []` for an attribute holding a dict or set (it stays a
    plain attribute, which TorchScript types from its value). Safe: `__constants__` means nothing to eager Python.
    Only for a list or tuple of string literals in the class's own body."""
    if not isinstance(cls.body, cst.IndentedBlock):
        return None
    for statement in cls.body.body:
        if not (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1):
            continue
        small = statement.body[0]
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1
                and isinstance(small.targets[0].target, cst.Name) and small.targets[0].target.value == "__constants__"
                and isinstance(small.value, (cst.List, cst.Tuple))):
            continue
        elements = small.value.elements
        if not all(isinstance(e, cst.Element) and isinstance(e.value, cst.SimpleString) for e in elements):
            return None
        kept = [ctx.code(e.value) for e in elements if e.value.evaluated_value != name]
        if len(kept) == len(elements):
            return None
        if isinstance(small.value, cst.List):
            text = "[" + ", ".join(kept) + "]"
        else:
            text = "(" + ", ".join(kept) + ("," if len(kept) == 1 else "") + ")"
        return PendingFix(f"drop `{name}` from `__constants__`", [PendingEdit(small.value, text)])
    return None

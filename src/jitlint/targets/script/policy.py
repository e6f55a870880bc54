"""The `script` capture policy: what `torch.jit.script(module)` compiles (torch 2.13).

Roots: `forward`, `@torch.jit.export` methods and every `@property` (getter and setter) of each nn.Module class (less
`__jit_unused_properties__`, and none for a class with `__prepare_scriptable__`), `@torch.jit.script` functions and
classes, and `torch.jit.script(f)` targets. A project class that is not a module, used in compiled code, is a
TorchScript class: all its methods are compiled. `__init__` is not compiled (it is no root);
`@torch.jit.ignore`/`@torch.jit.unused`/`@torch.jit._drop` bodies are not either, but their signatures are when
compiled code calls them; in a TorchScript class, only the return annotation of an `@torch.jit.unused` method is
compiled, and an `@torch.jit._drop` method not at all.

Pruned while torch emits: `torch.jit.is_scripting()` tests and `isinstance(param, X)` on parameters of known type,
folded with three-valued `and`/`or`/`not`, `Final[bool]`/`__constants__` flags in their default configuration, and
code after an `if is_scripting(): return`.
"""

from __future__ import annotations

from typing import Callable, Iterator

import libcst as cst

from jitlint.capture import Capture, CapturePolicy
from jitlint.pruning import NOT_LOGIC, PruningScanner, fold_logic
from jitlint.facts import RunFact, run_fact
from jitlint.facts.syntax import target_names
from jitlint.names import ImportTable, first_param_name
from jitlint.project import ClassInfo, FunctionInfo, ModuleInfo, ProjectIndex, decorator_names
from jitlint.targets.script.typing.annotations import class_type, is_none, named_params, signature_comment
from jitlint.targets.script.typing.frontend_names import EXCEPTIONS
from jitlint.targets.script.typing.types import ANY_LIST, ANY_TUPLE, BOOL, FLOAT, INT, STR, TENSOR, Type
from jitlint.walk import walk

ReturnKind = Callable[[cst.Call], "Type | None"]
IGNORE_DECORATORS = frozenset({"torch.jit.ignore", "torch.jit.unused", "torch.jit._drop"})
# What torch's frontend swaps for a stub in a TorchScript class (`get_jit_def` with `should_drop`): the parameters
# become `Any` (and `*args`/`**kwargs` go); `@torch.jit._drop` methods are left out of the class altogether.
DROPPED_IN_CLASSES = frozenset({"torch.jit.unused", "torch.jit._drop"})
SCRIPTING_CHECKS = frozenset({"torch.jit.is_scripting", "torch._C._is_scripting"})
# Runtime checks that torch.jit.script compiles as ordinary values: they do not prune anything.
NON_PRUNING_GUARDS = frozenset(
    {
        "torch.jit.is_tracing",
        "torch._C._get_tracing_state",
        "torch.compiler.is_compiling",
        "torch.compiler.is_dynamo_compiling",
        "torch._dynamo.is_compiling",
        "torch.onnx.is_in_onnx_export",
    }
)


# What `isinstance(param, X)` folds to, by the parameter's TorchScript type and X (verified on torch 2.13:
# `isinstance(x, torch.Tensor)` for `x: Tensor` is True and prunes; against int/list/tuple it is False; against a
# class TorchScript does not know (PIL.Image) torch errors instead, so it stays unknown). An isinstance test
# checks the outer type only: `List` and `Tuple` stand for a list or tuple of any element.
# (`dict` and bare `Dict` are not foldable: torch rejects them as isinstance targets, see JIT205.)
_LIST, _TUPLE = ANY_LIST, ANY_TUPLE
_ISINSTANCE_TYPES = {
    "torch.Tensor": TENSOR, "builtins.int": INT, "builtins.float": FLOAT, "builtins.bool": BOOL,
    "builtins.str": STR, "builtins.list": _LIST, "builtins.tuple": _TUPLE,
    "typing.List": _LIST, "typing.Tuple": _TUPLE,
}


def isinstance_type(annotation: cst.BaseExpression, imports: ImportTable) -> Type | None:
    """The outer type an annotation gives, as `isinstance` tests it (None when folding does not follow it)."""
    outer = annotation.value if isinstance(annotation, cst.Subscript) else annotation
    return _ISINSTANCE_TYPES.get(imports.qualify(outer) or "")


def param_types(function: cst.FunctionDef, imports: ImportTable, is_method: bool) -> dict[str, Type]:
    """TorchScript types of the parameters that `isinstance` can fold (TorchScript's parameter typing, reading only
    the outer type of an annotation): Tensor (annotated, or unannotated, with no default or a `None` one: torch 2.13
    types `def forward(self, x, size=None)`'s `size` Tensor, and `size is None` folds to False), and builtin
    scalars and containers; from a `# type:` signature comment when there is one. Optional parameters are refined,
    not folded: left out."""
    params = named_params(function.params)
    if is_method and params:
        params = params[1:]
    comment = signature_comment(function)
    typed: dict[str, Type | None] = {}
    if comment is not None:
        given = comment.params
        if given is None or len(given) != len(params):
            return {}
        for param, kind in zip(params, given):
            # a type comment is evaluated where `Tensor` always names torch.Tensor, imported or not
            if isinstance(kind, cst.Name) and kind.value == "Tensor" and imports.qualify(kind) is None:
                typed[param.name.value] = TENSOR
            else:
                typed[param.name.value] = isinstance_type(kind, imports)
    else:
        for param in params:
            if param.annotation is not None:
                typed[param.name.value] = isinstance_type(param.annotation.annotation, imports)
            elif param.default is None or is_none(param.default):
                typed[param.name.value] = TENSOR
    return {name: kind for name, kind in typed.items() if kind is not None}


def _isinstance_value(test: cst.Call, imports: ImportTable, types: dict[str, Type]) -> bool | None:
    if len(test.args) != 2 or not isinstance(test.args[0].value, cst.Name):
        return None
    actual = types.get(test.args[0].value.value)
    if actual is None:
        return None
    classes = test.args[1].value
    elements = [e.value for e in classes.elements] if isinstance(classes, cst.Tuple) else [classes]
    kinds = [_ISINSTANCE_TYPES.get(imports.qualify(e) or "") for e in elements]
    if None in kinds:
        return None
    return actual in kinds


AttributeValue = Callable[[cst.Attribute], "bool | None"]


def scripting_value(
    test: cst.BaseExpression,
    imports: ImportTable,
    names: dict[str, bool] | None = None,
    types: dict[str, Type] | None = None,
    attributes: AttributeValue | None = None,
    literals: bool = False,
) -> bool | None:
    """The value a test has while torch scripts it, when torch folds it to a constant; None when it does not.

    Verified on torch 2.13: `not is_scripting()`, `cond and not is_scripting()` (False) and
    `is_scripting() or cond` (True) prune; `is_scripting() and cond` and `not is_scripting() or cond` do not.
    `names` maps variables to the value they would have if they were the call (torch itself does not fold them);
    `types` gives parameter types for folding `isinstance(param, X)`; `attributes` the value of `self.flag` when
    it is a `Final[bool]`/`__constants__` attribute (verified: torch prunes `if self.flag:` then). `literals`: a
    `True`/`False` literal is a constant too, as in the test of an `if` statement or an `assert` (verified: `if False
    and cond:` and `assert False` compile nothing under or after them), but not in a conditional expression (`a if
    False else b` compiles both).
    """
    if names and isinstance(test, cst.Name) and test.value in names:
        return names[test.value]
    if literals and isinstance(test, cst.Name) and test.value in ("True", "False"):
        return test.value == "True"
    if attributes is not None and isinstance(test, cst.Attribute):
        return attributes(test)
    if types and isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        # `p is None` / `p is not None` of a parameter whose type cannot be None (a Tensor, an int, ...): torch
        # folds the test to a constant and compiles one branch only (verified on torch 2.13).
        target = test.comparisons[0]
        left, right = test.left, target.comparator
        if isinstance(left, cst.Name) and left.value == "None":
            left, right = right, left
        if (isinstance(left, cst.Name) and left.value in types and isinstance(right, cst.Name)
                and right.value == "None" and not left.lpar):
            if isinstance(target.operator, cst.Is):
                return False
            if isinstance(target.operator, cst.IsNot):
                return True
        return None
    if isinstance(test, cst.Call):
        qualified = imports.qualify(test.func)
        if not test.args and qualified in SCRIPTING_CHECKS:
            return True
        if types and qualified == "builtins.isinstance":
            return _isinstance_value(test, imports, types)
        return None
    refined, right = _refined_operand(test), getattr(test, "right", None)
    folded = fold_logic(test, lambda operand: refined if operand is right and refined is not None
                        else scripting_value(operand, imports, names, types, attributes, literals))
    return None if folded is NOT_LOGIC else folded


def _none_test(test: cst.BaseExpression) -> tuple[str, bool] | None:
    """`name is None` -> (name, True), `name is not None` -> (name, False)."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1 or not isinstance(test.left, cst.Name):
        return None
    target = test.comparisons[0]
    if not (isinstance(target.comparator, cst.Name) and target.comparator.value == "None"):
        return None
    if isinstance(target.operator, (cst.Is, cst.IsNot)):
        return test.left.value, isinstance(target.operator, cst.Is)
    return None


def _refined_operand(test: cst.BaseExpression) -> bool | None:
    """The right operand of `a or b` / `a and b` when the left one's None test decides it: torch emits `b` under the
    refinement of `a` (false for `or`, true for `and`), so `p is None or p is not None` is True and `p is None and
    p is not None` False (verified on torch 2.13: the code after `if p is None or p is not None: raise` is not
    compiled)."""
    if not isinstance(test, cst.BooleanOperation):
        return None
    left, right = _none_test(test.left), _none_test(test.right)
    if left is None or right is None or left[0] != right[0]:
        return None
    left_holds = isinstance(test.operator, cst.And)  # the left test's value where the right one runs
    is_none_there = left[1] == left_holds
    return is_none_there == right[1]


def guard_name(test: cst.BaseExpression, imports: ImportTable) -> str | None:
    """The non-pruning check (`torch.jit.is_tracing`, ...) a test relies on, if any."""
    if isinstance(test, cst.Call):
        qualified = imports.qualify(test.func)
        return qualified if qualified in NON_PRUNING_GUARDS else None
    if isinstance(test, cst.UnaryOperation):
        return guard_name(test.expression, imports)
    if isinstance(test, cst.BooleanOperation):
        return guard_name(test.left, imports) or guard_name(test.right, imports)
    return None



class ConstantNames(RunFact):
    """The attributes torch inlines as constants in a module class: annotated `Final` or listed in `__constants__`,
    in the class or a project base."""

    @classmethod
    def compute(cls, project: ProjectIndex, owner: ClassInfo) -> frozenset[str]:
        names: set[str] = set()
        for current in project.mro(owner):
            names.update(current.string_lists.get("__constants__", ()))
            names.update(name for name, info in current.own_attributes.items() if info.final)
        return frozenset(names)


def constant_names(project: ProjectIndex, cls: ClassInfo) -> frozenset[str]:
    """`ConstantNames` of a class."""
    return run_fact(project, ConstantNames, cls)


def constant_attribute(name: str, ctx) -> bool:
    """Whether `self.<name>` is a constant torch inlines (`Final` or `__constants__`) in a class the current
    function is compiled for."""
    owners = ctx.function.owners if ctx.function is not None else []
    return any(name in constant_names(ctx.project, owner) for owner in owners)


def is_ignored(function: FunctionInfo) -> bool:
    """Body not compiled (`@torch.jit.ignore` / `@torch.jit.unused` / `@torch.jit._drop`); the signature may
    still be."""
    return bool(function.decorators & IGNORE_DECORATORS)


_TORCH_JIT_DECORATORS = frozenset({"torch.jit.export", "torch.jit.ignore", "torch.jit.unused", "torch.jit._drop"})


def is_property_setter(function: FunctionInfo) -> bool:
    """`@<name>.setter` on a method of the same name: the setter of a property."""
    return f"{function.name}.setter" in function.decorators


def property_accessors(method: FunctionInfo) -> list[FunctionInfo]:
    """What torch compiles of the property a class's last `def` of a name belongs to (`frontend.get_class_properties`):
    its getter and its setter (the methods `shadows` holds, not a deleter); none when the name is no property or its
    getter is `@torch.jit.unused` (or `_drop`): torch drops the property, its setter too (`should_drop(fget)`)."""
    chain = []
    while method is not None:
        chain.append(method)
        method = method.shadows
    if any(accessor.is_property and accessor.decorators & {"torch.jit.unused", "torch.jit._drop"}
           for accessor in chain):
        return []
    return [accessor for accessor in reversed(chain) if accessor.is_property or is_property_setter(accessor)]


def is_export(function: FunctionInfo) -> bool:
    return "torch.jit.export" in function.decorators


def is_script(function: FunctionInfo) -> bool:
    return "torch.jit.script" in function.decorators


class ScriptScanner(PruningScanner):
    """Folds what torch.jit.script folds while emitting (see `scripting_value`), with the parameter types that
    still hold where the test is (a parameter rebound to a value of unknown type no longer folds)."""

    folds_asserts = True

    def __init__(
        self,
        root: cst.FunctionDef,
        imports: ImportTable,
        is_method: bool,
        return_kind: ReturnKind,
        constant_flag: Callable[[str], "bool | None"],
    ) -> None:
        super().__init__(root)
        self.imports = imports
        self.parameter_types = param_types(root, imports, is_method)
        self.self_name: str | None = first_param_name(root) if is_method else None
        self.constant_flag = constant_flag
        self.return_kind = return_kind
        self.rebound: set[str] = set()  # names assigned so far, in source order, to a value of unknown type

    def fold(self, test: cst.BaseExpression) -> bool | None:
        return scripting_value(test, self.imports, types=self.types, attributes=self._attribute_value, literals=True)

    def fold_expression(self, test: cst.BaseExpression) -> bool | None:
        return scripting_value(test, self.imports, types=self.types, attributes=self._attribute_value)

    def _attribute_value(self, node: cst.Attribute) -> bool | None:
        if isinstance(node.value, cst.Name) and node.value.value == self.self_name:
            return self.constant_flag(node.attr.value)
        return None

    @property
    def types(self) -> dict[str, Type]:
        """Parameter types that still hold here: a parameter rebound earlier may have changed type."""
        return {name: kind for name, kind in self.parameter_types.items() if name not in self.rebound}

    def visit_Assign(self, node: cst.Assign) -> None:
        # `img = F.resize(img, ...)` with `def resize(...) -> Tensor` keeps img a Tensor.
        if (
            len(node.targets) == 1
            and isinstance(node.targets[0].target, cst.Name)
            and isinstance(node.value, cst.Call)
            and self.parameter_types.get(node.targets[0].target.value) is not None
            and self.return_kind(node.value) == self.parameter_types[node.targets[0].target.value]
        ):
            return
        for target in node.targets:
            self.rebound |= target_names(target.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self.rebound |= target_names(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self.rebound |= target_names(node.target)

    def visit_For(self, node: cst.For) -> None:
        self.rebound |= target_names(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self.rebound |= target_names(node.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self.rebound |= target_names(node.target)


class ScriptPolicy(CapturePolicy):
    name = "script"
    roots_in_module_classes = True  # module classes, and `torch.jit.script` (spelled out in the file)
    primary_reasons = frozenset({"@torch.jit.script", "passed to torch.jit.script"})  # JIT214 reads them

    def roots(self) -> Iterator[Capture]:
        project = self.project
        for module in list(project.linted):
            for cls in module.classes.values():
                if project.is_module_class(cls):
                    yield from self._module_roots(cls)
                elif decorator_is_script(cls, module.imports):
                    yield from self._script_class(cls, "@torch.jit.script class")
            for function in module.functions.values():
                if is_script(function):
                    yield function, None, "@torch.jit.script"
            for target in self._script_call_targets(module):
                resolved = project.resolve(module.imports.qualify(target))
                if isinstance(resolved, FunctionInfo):
                    yield resolved, None, "passed to torch.jit.script"
                elif isinstance(resolved, ClassInfo) and not project.is_module_class(resolved):
                    yield from self._script_class(resolved, "passed to torch.jit.script")

    def decorated_by(self, function: FunctionInfo, owner: ClassInfo | None) -> FunctionInfo | None:
        """A module's `forward` or `@torch.jit.export` method whose outermost decorator past torch's own is a
        project function (by name, not a decorator factory's call): torch compiles what that decorator returned
        (JIT632 checks the wrapper)."""
        cls = function.cls
        if owner is None or cls is None or not function.node.decorators:
            return None
        if function.name != "forward" and not is_export(function):
            return None
        project = self.project
        if not project.is_module_class(cls):
            return None
        imports = function.module.imports
        outer = [d.decorator for d in function.node.decorators
                 if imports.qualify(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator)
                 not in _TORCH_JIT_DECORATORS]
        if not outer or isinstance(outer[0], cst.Call):
            return None
        qualified = imports.qualify(outer[0])
        return project.resolve_function(qualified) if qualified is not None else None

    def _module_roots(self, cls: ClassInfo) -> Iterator[Capture]:
        if self.project.find_method(cls, "__prepare_scriptable__") is not None:
            # torch.jit.script scripts what `__prepare_scriptable__()` returns instead (torchvision's v2
            # transforms return their v1 counterpart), so this class's own methods are not compiled.
            return
        forward = self.project.find_method(cls, "forward")
        if forward is not None:
            yield forward, cls, f"forward of {cls.name}"
        unused = set()
        for current in self.project.mro(cls):
            unused.update(current.string_lists.get("__jit_unused_properties__", ()))
        for base in self.project.torch_bases(cls):  # a library base's list (`jitlint.facts.external_bases`)
            external = None if base.startswith("torch.") else self.project.external_base(base)
            unused.update(external.unused_properties or () if external is not None else ())
        seen: set[str] = set()
        for current in self.project.mro(cls):
            for name, method in current.methods.items():
                if name in seen:
                    continue
                seen.add(name)
                if is_export(method):
                    yield (method, cls, f"@torch.jit.export method of {cls.name}")
                elif name not in unused:
                    for accessor in property_accessors(method):
                        yield accessor, cls, f"property of {cls.name} (torch compiles every property)"

    def _script_class(self, cls: ClassInfo, reason: str) -> Iterator[Capture]:
        if decorator_names(cls.node, cls.module.imports) & IGNORE_DECORATORS:
            return  # an ignored class is not compiled (using it in compiled code is JIT622's error)
        for method in cls.methods.values():
            if "torch.jit._drop" not in method.decorators:
                yield method, cls, f"method of TorchScript class {cls.name} ({reason})"
            for accessor in property_accessors(method.shadows):  # a property's getter its setter rebinds
                yield accessor, cls, f"method of TorchScript class {cls.name} ({reason})"

    def _script_call_targets(self, module: ModuleInfo) -> list[cst.BaseExpression]:
        """Arguments of `torch.jit.script(f)` calls anywhere in the file."""
        if module.text is not None and "script" not in module.text:
            return []
        targets: list[cst.BaseExpression] = []
        imports = module.imports

        class Finder(cst.CSTVisitor):
            def visit_Call(self, node: cst.Call) -> None:
                if node.args and imports.qualify(node.func) == "torch.jit.script":
                    targets.append(node.args[0].value)

        walk(module.tree, Finder())
        return targets

    def body_captured(self, function: FunctionInfo) -> bool:
        return not is_ignored(function)

    def params_captured(self, function: FunctionInfo) -> bool:
        cls = function.cls
        return not (
            function.decorators & DROPPED_IN_CLASSES and cls is not None and not self.project.is_module_class(cls)
        )

    def scanner(self, function: FunctionInfo) -> ScriptScanner:
        imports = function.module.imports
        return ScriptScanner(
            function.node,
            imports,
            is_method=function.bound_first_param is not None,
            return_kind=lambda call: self.return_kind(call, imports),
            constant_flag=lambda name, cls=function.cls: self.constant_flag(cls, name),
        )

    def class_used(self, cls: ClassInfo, caller: FunctionInfo) -> Iterator[Capture]:
        if self._is_exception(cls):
            return iter(())  # a Python exception class: torch raises it by name, never compiles it
        return self._script_class(cls, f"used in {caller.display_name}")

    def types_tested(self, call: cst.Call, caller: FunctionInfo) -> Iterator[Capture]:
        # `isinstance(x, Cls)`: the frontend parses `Cls` as a type (`try_ann_to_type`, torch/jit/annotations.py),
        # which compiles a plain class as a TorchScript class (`_recursive_compile_class`), every method of it;
        # a NamedTuple, an Enum or an interface is a type of its own, and an exception class is never compiled
        # (`can_compile_class`, torch/_jit_internal.py)
        if len(call.args) != 2:
            return
        tested = call.args[1].value
        for element in tested.elements if isinstance(tested, cst.Tuple) else (tested,):
            named = caller.module.imports.qualify(element.value if isinstance(element, cst.Element) else element)
            cls = self.project.resolve_class(named) if named is not None else None
            kind = class_type(cls, self.project) if cls is not None else None
            if kind is not None and kind.name == "Class" and not self._is_exception(cls):
                yield from self._script_class(cls, f"named as a type in {caller.display_name}")

    def _is_exception(self, cls: ClassInfo) -> bool:
        """Whether a project class derives from a builtin exception: torch's frontend gives such a class (any
        subclass of `BaseException`) a value that builds an exception message, whatever its methods."""
        return any(base in EXCEPTIONS for klass in self.project.mro(cls) for base in klass.base_names)

    def constant_flag(self, cls: ClassInfo | None, name: str) -> bool | None:
        """The value of a `Final[bool]`/`__constants__` flag of the method's class, in its default configuration."""
        if cls is None:
            return None
        info = self.project.attributes(cls).get(name)
        return info.init_bool if info is not None and name in constant_names(self.project, cls) else None

    def return_kind(self, call: cst.Call, imports: ImportTable) -> Type | None:
        """The declared return type of a project function a call resolves to, as `isinstance` folding sees it."""
        target = self.project.resolve_function(imports.qualify(call.func))
        if target is None or target.node.returns is None:
            return None
        return isinstance_type(target.node.returns.annotation, target.module.imports)


def decorator_is_script(cls: ClassInfo, imports: ImportTable) -> bool:
    for decorator in cls.node.decorators:
        expr = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
        if imports.qualify(expr) == "torch.jit.script":
            return True
    return False



"""The `fx-trace` capture policy: what `torch.fx.symbolic_trace(module)` traces (torch 2.13).

Roots: `forward` of every nn.Module class of the linted files that is not a leaf. The tracer runs that Python and
follows it into every project function it calls and every submodule that is not a leaf, across files.

Where tracing stops (the body is not traced, the call becomes one graph node):
- leaf modules: classes defined under `torch.nn` / `torch.ao.nn` (never project code unless torch itself is
  linted) except `nn.Sequential`; classes named in `[tool.jitlint.fx] leaf-modules` (and their subclasses); with
  `library-leaves = true`, classes decorated with timm's `@register_notrace_module` and the modules of
  `torchvision.ops` (what `create_feature_extractor` and timm's tracer make leaves);
- wrapped functions: `@torch.fx.wrap` and module-level `torch.fx.wrap("f")` / `torch.fx.wrap(f)`, for calls made
  from the registering module or through it (`layers.f(x)`): torch patches that module's globals only, so a call
  by a name another module imported runs the body; functions named in `autowrap-functions`; with `library-leaves = true`, timm's `@register_notrace_function` /
  `register_notrace_function(f)` and the functions of `torchvision.ops`. `math.*` is autowrapped by torch itself.

Pruning is the inverse of TorchScript's: while tracing, `torch.jit.is_scripting()` is False (FX takes the eager
branch), `torch.jit.is_tracing()`, `torch.compiler.is_compiling()`/`is_exporting()` and `torch.onnx.is_in_onnx_export()`
are False, and `torch.fx._symbolic_trace.is_fx_tracing()` / `is_fx_symbolic_tracing()` are True. `@torch.jit.ignore`
means nothing to FX.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

import libcst as cst

from jitlint.capture import Capture, CapturedFunction, CapturePolicy
from jitlint.pruning import CheckScanner
from jitlint.names import ImportTable, first_param_name
from jitlint.project import ClassInfo, FunctionInfo, ModuleInfo, ProjectIndex
from jitlint.targets.fx.external import TorchForward, torch_forwards
from jitlint.targets.fx.settings import FxSettings
from jitlint.walk import walk

# The value a call has while symbolic_trace runs the code (qualified names).
TRACE_TIME_VALUES = {
    "torch.jit.is_scripting": False,
    "torch._C._is_scripting": False,
    "torch.jit.is_tracing": False,
    "torch._C._get_tracing_state": None,  # returns None: falsy, but not a bool we fold
    "torch.compiler.is_compiling": False,
    "torch.compiler.is_dynamo_compiling": False,
    "torch.compiler.is_exporting": False,
    "torch._dynamo.is_compiling": False,
    "torch.onnx.is_in_onnx_export": False,
    "torch.fx._symbolic_trace.is_fx_tracing": True,
    "torch.fx._symbolic_trace.is_fx_symbolic_tracing": True,
}
FX_WRAP = "torch.fx.wrap"
LIBRARY_MODULE_LEAF_DECORATORS = ("register_notrace_module",)
LIBRARY_FUNCTION_WRAPPERS = ("register_notrace_function",)
LIBRARY_LEAF_PACKAGES = ("torchvision.ops",)


def module_level_wraps(module: ModuleInfo) -> frozenset[str]:
    """Names a module registers at its top level with `torch.fx.wrap("f")` / `torch.fx.wrap(f)` (and, for
    library leaves, `register_notrace_function(f)`), tagged: "fx:<name>" or "library:<name>"."""
    found: set[str] = set()
    text = module.text
    if text is not None and "wrap" not in text and "notrace" not in text:
        return frozenset()
    for statement in module.tree.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            value = small.value if isinstance(small, (cst.Expr, cst.Assign)) else None
            if not isinstance(value, cst.Call) or not value.args:
                continue
            qualified = module.imports.qualify(value.func) or ""
            argument = value.args[0].value
            name = None
            if isinstance(argument, cst.SimpleString):
                name = argument.evaluated_value if isinstance(argument.evaluated_value, str) else None
            elif isinstance(argument, cst.Name):
                name = argument.value
            if name is None:
                continue
            if qualified == FX_WRAP:
                found.add(f"fx:{name}")
            elif qualified.rpartition(".")[2] in (*LIBRARY_FUNCTION_WRAPPERS, *LIBRARY_MODULE_LEAF_DECORATORS):
                found.add(f"library:{name}")  # `register_notrace_function(f)`, `register_notrace_module(Cls)`
    return frozenset(found)


@dataclass
class LeafKnowledge:
    """What stops the trace in one run: caches over the project index."""

    project: ProjectIndex
    settings: FxSettings
    _wraps: dict[int, frozenset[str]] = field(default_factory=dict)
    _leaf: dict[int, bool] = field(default_factory=dict)

    def _module_wraps(self, module: ModuleInfo) -> frozenset[str]:
        if id(module) not in self._wraps:
            self._wraps[id(module)] = module_level_wraps(module)
        return self._wraps[id(module)]

    def _in_library_package(self, module: ModuleInfo) -> bool:
        return self.settings.library_leaves and any(
            module.name == package or module.name.startswith(package + ".") for package in LIBRARY_LEAF_PACKAGES
        )

    def fx_wrapped(self, function: FunctionInfo) -> bool:
        """Registered with `torch.fx.wrap` (decorator or module-level call). symbolic_trace patches the name in the
        globals of the module that registers it only: a call from that module, or through the module
        (`layers.f(x)`), is one node; a call by a name another module imported (`from layers import f`) runs
        the body (verified on torch 2.13)."""
        if FX_WRAP in function.decorators:
            return True
        return function.cls is None and f"fx:{function.name}" in self._module_wraps(function.module)

    def wraps_builtin(self, module: ModuleInfo, name: str) -> bool:
        """Whether the module registers a builtin with `torch.fx.wrap("len")` at its top level: a call of it there
        with a Proxy is recorded as one node."""
        return f"fx:{name}" in self._module_wraps(module)

    def wrapped_call(self, function: FunctionInfo, call: cst.Call, caller_module: ModuleInfo) -> bool:
        """Whether this call of the function is recorded as one node (not traced into)."""
        if self.wrapped(function) is not None:
            return True
        if not self.fx_wrapped(function):
            return False
        return caller_module is function.module or isinstance(call.func, cst.Attribute)

    def wrapped(self, function: FunctionInfo) -> str | None:
        """Why the tracer records every call of this function as one node instead of tracing its body (configured
        autowrap functions and library registrations), or None. `torch.fx.wrap` is per call (`wrapped_call`)."""
        if function.cls is None:
            wraps = self._module_wraps(function.module)
            if function.qualname in self.settings.autowrap_functions:
                return "autowrap-functions"
            if self.settings.library_leaves:
                if f"library:{function.name}" in wraps or any(
                    name.rpartition(".")[2] in LIBRARY_FUNCTION_WRAPPERS for name in function.decorators
                ):
                    return "a library's notrace registration"
                if self._in_library_package(function.module):
                    return "autowrapped by torchvision's feature extraction"
        return None

    def leaf(self, cls: ClassInfo) -> bool:
        """Whether the tracer keeps instances of this project class opaque (one call_module node)."""
        key = id(cls)
        if key not in self._leaf:
            self._leaf[key] = False  # cycles in bases
            self._leaf[key] = self._compute_leaf(cls)
        return self._leaf[key]

    def _compute_leaf(self, cls: ClassInfo) -> bool:
        for current in self.project.mro(cls):
            qualified = f"{current.module.name}.{current.name}"
            if qualified in self.settings.leaf_modules:
                return True
            if self.settings.library_leaves:
                decorators = _class_decorators(current)
                if any(name.rpartition(".")[2] in LIBRARY_MODULE_LEAF_DECORATORS for name in decorators):
                    return True
                if f"library:{current.name}" in self._module_wraps(current.module):
                    return True  # `register_notrace_module(Cls)` at module level
                if self._in_library_package(current.module):
                    return True
            module_name = current.module.name
            if module_name.startswith(("torch.nn.", "torch.ao.nn.")) and current.name != "Sequential":
                return True
        return False


def _class_decorators(cls: ClassInfo) -> set[str]:
    names = set()
    for decorator in cls.node.decorators:
        expr = decorator.decorator.func if isinstance(decorator.decorator, cst.Call) else decorator.decorator
        qualified = cls.module.imports.qualify(expr)
        if qualified:
            names.add(qualified)
        elif isinstance(expr, cst.Name):
            names.add(expr.value)
    return names


def applied_function(project: ProjectIndex, call: cst.Call, caller: FunctionInfo) -> FunctionInfo | None:
    """The project function (named at module level, or imported) that `map(f, items)` / `filter(f, items)` calls."""
    if len(call.args) != 2 or any(arg.star or arg.keyword is not None for arg in call.args):
        return None
    func = call.args[0].value
    if not isinstance(func, (cst.Name, cst.Attribute)):
        return None
    qualified = caller.module.imports.qualify(func)
    target = project.resolve(qualified) if qualified is not None else None
    return target if isinstance(target, FunctionInfo) and target.cls is None else None


def torch_forward(project: ProjectIndex, cls: ClassInfo) -> TorchForward | None:
    """What `torch_checks.toml` says of the torch.nn class whose `forward` a project module class inherits (the first
    torch.nn base in its bases' order), or None when it lists nothing for it."""
    for current in project.mro(cls):
        for base in current.base_names:
            if base and base.startswith("torch.nn."):
                return torch_forwards().get(base)
    return None


def torch_forward_override(project: ProjectIndex, cls: ClassInfo) -> FunctionInfo | None:
    """The project's override of the method torch's inherited `forward` calls first with the input
    (`_check_input_dim` of a BatchNorm subclass)."""
    entry = torch_forward(project, cls)
    if entry is None or entry.hook is None:
        return None
    return project.find_method(cls, entry.hook)


_AUTOGRAD_FUNCTIONS = frozenset({"torch.autograd.Function", "torch.autograd.function.Function"})


def autograd_forward(project: ProjectIndex, cls: ClassInfo, name: str) -> FunctionInfo | None:
    """The `forward` that `Cls.apply(...)` runs for a project subclass of `torch.autograd.Function`: under
    symbolic_trace, `Function.apply` calls it with the Proxies as they are (a Proxy is no tensor to the autograd
    machinery), after a `ctx`."""
    if name != "apply" or not any(base in _AUTOGRAD_FUNCTIONS for current in project.mro(cls)
                                  for base in current.base_names):
        return None
    return project.find_method(cls, "forward")


def torch_forward_hook(project: ProjectIndex, cls: ClassInfo) -> FunctionInfo | None:
    """`torch_forward_override` of a class that defines no forward of its own: what stands for its forward."""
    if project.find_method(cls, "forward") is not None:
        return None
    return torch_forward_override(project, cls)


def submodule_classes(project: ProjectIndex) -> frozenset[int]:
    """Module classes (ids) traced as parts of a model rather than as the model itself: another module class of the
    project builds them or passes them on (a parent's `__init__`, `_make_layer(Block, ...)`), or functions only
    pass them on (`_create(Block, ...)`, `build_model_with_cfg(Model, ...)`). They are called with what their
    caller passes (an argument a call omits keeps its default). The others are the classes users trace themselves
    (roots): never referred to, or built by a function or by a class that is not a module (`model = ResNet(...)`
    in a builder, a trainer's `get_model`). An `isinstance`/`issubclass` test names a class without using it, so
    does a module-level alias (`bN = BatchNorm`), and so does a module class's method that runs neither while it
    is built nor while it is traced (the v1 transform a `__prepare_scriptable__` returns is not part of the
    module, which a user may trace; `symbolic_trace` takes any module). Every forward parameter of a root becomes a Proxy placeholder, flags with defaults too."""
    return _class_references(project)[0]


def attribute_only_classes(project: ProjectIndex) -> frozenset[int]:
    """Module classes (ids) the project only ever builds as `self.<name> = Cls(...)`: every call of theirs in
    traced code is `self.<name>(...)`, which the tracing model resolves, so one it never reaches is not traced."""
    return _class_references(project)[1]


def _class_references(project: ProjectIndex) -> tuple[frozenset[int], frozenset[int]]:
    cache = project.derived.get("fx.submodule_classes")
    if cache is not None and cache[0] == len(project.modules):
        return cache[1]
    names = {cls.name for module in project.modules.values() for cls in module.classes.values()}
    in_classes: set[int] = set()
    passed: set[int] = set()
    built_by_function: set[int] = set()
    as_attribute: set[int] = set()
    otherwise: set[int] = set()
    seen: dict = {}  # per class: the methods building or tracing runs; per method: its `_SelfAttributes`
    for module in list(project.modules.values()):
        if module.text is not None and not any(name in module.text for name in names):
            continue
        collector = _References(names)
        walk(module.tree, collector)
        for node, inside, called, method in collector.found:
            if id(node) in collector.aliases:
                continue
            target = project.resolve_class(module.imports.qualify(node))
            if target is None or not project.is_module_class(target):
                continue
            enclosing = module.classes.get(inside) if inside is not None else None
            if enclosing is not None and project.is_module_class(enclosing) and not (
                    id(node) in collector.attribute_values or _builds_submodules(
                        project, enclosing, method, collector.class_attributes.get(id(node)), seen)):
                continue  # named where no module is built or traced (`__prepare_scriptable__`, a class attribute
                # nothing built or traced reads): the module being built does not hold one
            (as_attribute if id(node) in collector.attribute_values else otherwise).add(id(target))
            if inside is not None and target.module is module and target.name == inside:
                continue  # its own body
            if enclosing is not None and project.is_module_class(enclosing) and (
                    called or id(node) in collector.arguments):
                in_classes.add(id(target))  # a parent module builds it, or hands it to what builds it
            elif called:
                built_by_function.add(id(target))
            else:
                passed.add(id(target))
    result = (frozenset(in_classes | (passed - built_by_function)), frozenset(as_attribute - otherwise))
    project.derived["fx.submodule_classes"] = (len(project.modules), result)
    return result


# Methods that run when a module is built or traced: what they build may be a submodule or traced through.
_BUILD_OR_TRACE = ("__init__", "forward", "__call__")


def _builds_submodules(project: ProjectIndex, cls: ClassInfo, method: str | None, attributes: tuple[str, ...] | None,
                       cache: dict) -> bool:
    """Whether a class named in the body of module class `cls` may end up inside a module being built or traced.
    In a method (`method`): when that method runs while an instance is built or traced (`__init__`, `forward`, and
    what they call on `self`, along the MRO). In a class-level `NAME = Cls` (`attributes`): when such a method
    reads `self.NAME`. Another class-level use (a default, a table) is taken to be one."""
    if method is None and not attributes:
        return True
    key = ("methods", id(cls))
    names = cache.get(key)
    if names is None:
        names = cache[key] = _methods_run_by_build_or_trace(project, cls, cache)
    if method is not None:
        return method in names
    return any(attribute in _self_attributes_read(project, cls, names, cache) for attribute in attributes)


def _methods_run_by_build_or_trace(project: ProjectIndex, cls: ClassInfo, cache: dict) -> set[str]:
    names: set[str] = set()
    pending = list(_BUILD_OR_TRACE)
    while pending:
        name = pending.pop()
        if name in names:
            continue
        names.add(name)
        for current in project.mro(cls):
            function = current.methods.get(name)
            if function is not None:
                pending.extend(_SelfAttributes.of(function, cache).called)
    return names


def _self_attributes_read(project: ProjectIndex, cls: ClassInfo, methods: set[str], cache: dict) -> set[str]:
    read: set[str] = set()
    for current in project.mro(cls):
        for name in methods:
            function = current.methods.get(name)
            if function is not None:
                read |= _SelfAttributes.of(function, cache).read
    return read


class _SelfAttributes(cst.CSTVisitor):
    """The attributes a method reads on its first parameter (`self.x`, `cls.x`, `type(self).x`) and the methods it
    calls on it or on `super()`."""

    def __init__(self, self_name: str | None) -> None:
        self.self_name = self_name
        self.read: set[str] = set()
        self.called: set[str] = set()

    @classmethod
    def of(cls, function: FunctionInfo, cache: dict) -> "_SelfAttributes":
        found = cache.get(id(function.node))
        if found is None:
            found = cache[id(function.node)] = cls(first_param_name(function.node))
            walk(function.node.body, found)
        return found

    def _is_self(self, expr: cst.BaseExpression) -> bool:
        if isinstance(expr, cst.Name):
            return expr.value == self.self_name
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name):
            if expr.func.value == "super":
                return True
            return expr.func.value == "type" and len(expr.args) == 1 and self._is_self(expr.args[0].value)
        return False

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if self._is_self(node.value):
            self.read.add(node.attr.value)

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Attribute) and self._is_self(node.func.value):
            self.called.add(node.func.attr.value)


class _References(cst.CSTVisitor):
    """Names and dotted names that may refer to a project class: with the top-level class they sit in (None at
    module level and in functions), whether they are called, and the method of that class they are in (None in
    its body)."""

    def __init__(self, names: set[str]) -> None:
        self.names = names
        self.found: list[tuple[cst.BaseExpression, str | None, bool, str | None]] = []
        self.classes: list[str] = []
        self.functions: list[tuple[str, int]] = []  # enclosing defs, with the number of classes around each
        self.class_attributes: dict[int, tuple[str, ...]] = {}  # the class of a top-level class's `NAME = Cls`
        self.aliases: set[int] = set()  # the class of a module-level `NAME = Cls`
        self.bases: set[int] = set()
        self.called: set[int] = set()
        self.attribute_values: set[int] = set()  # the class of `self.<name> = Cls(...)`
        self.arguments: set[int] = set()  # a name passed as a call's argument (`_make_layer(Block, ...)`)
        self.type_tests: set[int] = set()  # names inside the class argument of isinstance/issubclass

    def visit_Assign(self, node: cst.Assign) -> None:
        value = node.value
        if isinstance(value, cst.Call) and all(
                isinstance(t.target, cst.Attribute) and isinstance(t.target.value, cst.Name) for t in node.targets):
            self.attribute_values.add(id(value.func))
        self._class_attribute([t.target for t in node.targets], value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._class_attribute([node.target], node.value)

    def _class_attribute(self, targets: list[cst.BaseExpression], value: cst.BaseExpression) -> None:
        if not self.classes and not self.functions and isinstance(value, (cst.Name, cst.Attribute)):
            self.aliases.add(id(value))  # `bN = BatchNorm` at module level: another name, not a use
            return
        if len(self.classes) == 1 and not self.functions and isinstance(value, (cst.Name, cst.Attribute)):
            names = tuple(t.value for t in targets if isinstance(t, cst.Name))
            if len(names) == len(targets):
                self.class_attributes[id(value)] = names

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.append((node.name.value, len(self.classes)))

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.pop()

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.classes.append(node.name.value)
        self.bases.add(id(node.name))  # defining a class is not using it
        for base in node.bases:  # deriving from a class is not using it as a submodule
            collector = _AllNames()
            walk(base.value, collector)
            self.bases |= collector.ids
        return True

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self.classes.pop()

    def visit_Call(self, node: cst.Call) -> None:
        self.called.add(id(node.func))
        for arg in node.args:
            self.arguments.add(id(arg.value))
        if isinstance(node.func, cst.Name) and node.func.value in ("isinstance", "issubclass") and len(node.args) > 1:
            collector = _AllNames()
            walk(node.args[1].value, collector)
            self.type_tests |= collector.ids

    def _found(self, node: cst.BaseExpression) -> None:
        if id(node) in self.type_tests:
            return  # `isinstance(m, Cls)` names the class without using it
        method = self.functions[0][0] if self.functions and self.functions[0][1] == 1 else None
        self.found.append((node, self.classes[0] if self.classes else None, id(node) in self.called, method))

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self.names and id(node) not in self.bases:
            self._found(node)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if node.attr.value in self.names and id(node) not in self.bases:
            self._found(node)
        return True

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False  # `from m import Cls` is not a use

    def visit_Import(self, node: cst.Import) -> bool:
        return False


class _AllNames(cst.CSTVisitor):
    def __init__(self) -> None:
        self.ids: set[int] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.ids.add(id(node))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.ids.add(id(node))


class TracePolicy(CapturePolicy):
    name = "fx-trace"
    # What a function's parameters hold comes from the analysis of its callers, anywhere in the project:
    # a run split across workers would see only the callers in each worker's files (the engine keeps it whole).
    needs_one_process = True

    settings: FxSettings

    def __init__(self, project, captured, settings: FxSettings | None = None) -> None:
        super().__init__(project, captured, settings if settings is not None else FxSettings())
        self.leaves = LeafKnowledge(project, self.settings)
        self.model = None  # the run's tracing model (jitlint.targets.fx.tracing), built on first use

    def roots(self) -> Iterator[Capture]:
        project = self.project
        for module in list(project.linted):
            for cls in module.classes.values():
                if not project.is_module_class(cls) or self.leaves.leaf(cls):
                    continue
                forward = project.find_method(cls, "forward")
                if forward is not None:
                    yield forward, cls, f"forward of {cls.name}"
                hook = torch_forward_override(project, cls)
                if hook is not None:
                    yield hook, cls, f"{hook.name} of {cls.name}, called by the forward it inherits from torch.nn"

    def body_captured(self, function: FunctionInfo) -> bool:
        if "torch.jit.script" in function.decorators:
            return False  # a ScriptFunction: called, not traced into
        if self.leaves.wrapped(function) is not None:
            return False
        if function.cls is not None and self.project.is_module_class(function.cls) and self.leaves.leaf(function.cls):
            return False
        return True

    def scanner(self, function: FunctionInfo) -> CheckScanner:
        return CheckScanner(function.node, function.module.imports, TRACE_TIME_VALUES)

    def runs_instead(self, cls: ClassInfo, name: str) -> FunctionInfo | None:
        return autograd_forward(self.project, cls, name)

    def class_used(self, cls: ClassInfo, caller: FunctionInfo) -> Iterator[Capture]:
        # A plain Python object built in forward runs its `__init__` (`constructor`) and the methods called on it
        # as Python; the calls made on it are not resolved here (no object types), so nothing more is traced.
        return ()

    def applied(self, call: cst.Call, caller: FunctionInfo) -> Iterator[Capture]:
        # `map(f, items)` and `filter(f, items)` call a module-level function `f` with each item, as Python
        function = applied_function(self.project, call, caller)
        if function is not None and self.body_captured(function):
            yield function, function.cls, f"applied by {caller.display_name}"

    def constructor(self, cls: ClassInfo) -> FunctionInfo | None:
        # Building an object of a project class in traced code runs its `__init__` as Python with the call's
        # arguments, Proxies among them. Not an exception's: raising one ends the trace there anyway.
        init = self.project.find_method(cls, "__init__")
        if init is None or not self.body_captured(init) or any(
                base and base.startswith("builtins.") and base.endswith(("Error", "Exception", "Warning"))
                for klass in self.project.mro(cls) for base in klass.base_names):
            return None
        return init


def _forward_owners(policy: TracePolicy, entry: CapturedFunction) -> list[ClassInfo]:
    """The classes this function is the forward of, or stands for (`torch_forward_hook`)."""
    info = entry.info
    if info.cls is None:
        return []
    owners = entry.owners or [info.cls]
    if info.name != "forward":
        owners = [owner for owner in owners if torch_forward_hook(policy.project, owner) is info]
    return owners


def alone_roots(policy: TracePolicy, entry: CapturedFunction) -> list[ClassInfo]:
    """The module classes this function is the forward of (or stands for, `torch_forward_hook`) that are parts of
    other modules of the project (`submodule_classes`): a user may still build one and trace it on its own."""
    if not policy.settings.parts_alone:
        return []
    used = submodule_classes(policy.project)
    return [owner for owner in _forward_owners(policy, entry) if policy.project.is_module_class(owner)
            and id(owner) in used and not policy.leaves.leaf(owner)]


def is_root_forward(policy: TracePolicy, entry: CapturedFunction) -> bool:
    """A forward of a module class that no other module class of the project uses: users trace it themselves. The
    method torch's inherited forward calls with the input (`torch_forward_hook`) stands for the forward of a class
    that defines none."""
    used = submodule_classes(policy.project)
    return any(policy.project.is_module_class(owner) and id(owner) not in used
               for owner in _forward_owners(policy, entry))

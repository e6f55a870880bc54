"""JIT620-623: TorchScript classes and modules as torch's frontend builds their types: the attributes a TorchScript
class has are those its `__init__` assigns; an attribute's type cannot contain its own class; a class torch is
told to ignore cannot be built in compiled code; a module must run `nn.Module.__init__` before torch can read it.
"""

from __future__ import annotations

import libcst as cst

from jitlint.facts.syntax import assigned_names, target_names
from jitlint.names import first_param_name
from jitlint.project import ClassInfo, decorator_names
from jitlint.rules.base import RuleContext
from jitlint.targets.script.claims import results_for
from jitlint.targets.script.facts import ScriptTypes
from jitlint.targets.script.rules import ScriptRule
from jitlint.targets.script.scopes import params_of
from jitlint.walk import walk

_IGNORE = frozenset({"torch.jit.ignore", "torch.jit.unused"})


def script_class_owner(ctx: RuleContext) -> ClassInfo | None:
    """The TorchScript class (not a module) whose method is being compiled, when it has no base but `object`."""
    function = ctx.function
    if function is None or function.info.cls is None or function.info.bound_first_param != "instance":
        return None
    cls = function.info.cls
    if any(owner is not cls for owner in function.owners):
        return None  # a mixin's method compiled for the class that inherits it (a module, say)
    if ctx.project.is_module_class(cls) or any(base not in (None, "builtins.object") for base in cls.base_names):
        return None
    if any(base is None for base in cls.base_names):
        return None
    if decorator_names(cls.node, cls.module.imports) - {"torch.jit.script"}:
        return None  # a decorator (dataclass...) that may add attributes
    return cls


class _InitAttributes(cst.CSTVisitor):
    """The `self.<name>` an `__init__` assigns (any path), and whether it sets attributes in ways not seen here."""

    def __init__(self, self_name: str) -> None:
        self.self_name = self_name
        self.names: set[str] = set()
        self.dynamic = False

    def _target(self, target: cst.BaseExpression) -> None:
        if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
            if target.value.value == self.self_name:
                self.names.add(target.attr.value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._target(element.value)
        elif isinstance(target, cst.StarredElement):
            self._target(target.value)

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._target(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._target(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._target(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._target(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._target(node.name)

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in ("setattr", "__dict__", "__setattr__", "vars"):
            self.dynamic = True

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value in ("__dict__", "__setattr__"):
            self.dynamic = True

    def visit_Call(self, node: cst.Call) -> None:
        # `self._setup()`: another method may assign attributes for `__init__`; torch compiles it inline, too.
        func = node.func
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == self.self_name:
            self.dynamic = True


# Keyed by the `__init__` node's id, holding the node so that the id is not reused while the entry lives.
_INIT_ATTRIBUTES: dict[int, tuple[cst.FunctionDef, frozenset[str], bool]] = {}


def init_attributes(cls: ClassInfo) -> frozenset[str] | None:
    """The attributes a TorchScript class's `__init__` defines; None when that is not known."""
    init = cls.methods.get("__init__")
    if init is None:
        return frozenset()
    key = id(init.node)
    if key not in _INIT_ATTRIBUTES or _INIT_ATTRIBUTES[key][0] is not init.node:
        self_name = first_param_name(init.node)
        collect = _InitAttributes(self_name or "self")
        walk(init.node.body, collect)
        if len(_INIT_ATTRIBUTES) > 4096:
            _INIT_ATTRIBUTES.clear()
        _INIT_ATTRIBUTES[key] = (init.node, frozenset(collect.names), collect.dynamic or self_name is None)
    _, names, dynamic = _INIT_ATTRIBUTES[key]
    return None if dynamic else names


def _class_level_names(cls: ClassInfo) -> set[str]:
    names = set(cls.methods)
    body = cls.node.body.body if isinstance(cls.node.body, cst.IndentedBlock) else ()
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.AnnAssign):
                    names.update(target_names(small.target))
                elif isinstance(small, cst.Assign):
                    for target in small.targets:
                        names.update(target_names(target.target))
        elif isinstance(statement, (cst.ClassDef, cst.FunctionDef)):
            names.add(statement.name.value)
        else:
            return set()  # a compound statement in the class body: what it defines is not followed
    return names


def _class_level_values(cls: ClassInfo) -> set[str]:
    """The names the class body assigns a value to (`depth = 3`, `depth: int = 3`), not bare annotations."""
    names: set[str] = set()
    body = cls.node.body.body if isinstance(cls.node.body, cst.IndentedBlock) else ()
    for statement in body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.AnnAssign) and small.value is not None:
                names.update(target_names(small.target))
            elif isinstance(small, cst.Assign):
                for target in small.targets:
                    names.update(target_names(target.target))
    return names


class ClassAttributeNotInInit(ScriptRule):
    code = "JIT620"
    name = "class-attr-not-in-init"
    severity = "error"
    summary = (
        "in a TorchScript class, `self.x` read or set by a method when `__init__` never assigns `self.x` (the "
        "attributes of a TorchScript class are those its `__init__` defines)"
    )
    message = "attribute of a TorchScript class that `__init__` never assigns"
    facts = (ScriptTypes,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # what the typer finds of TorchScript classes used in compiled code

        for result in results_for(self, node, ctx):
            cls, name, problem = result.cls, result.name, result.problem
            if problem == "no-init":
                message = (f"`{cls}` has no `__init__`, and TorchScript builds an object only through its class's own "
                           f"`__init__` (torch: 'Class {cls} does not have an __init__ function defined'); define one")
            elif problem == "class-attribute":
                message = (f"`{name}` is a class attribute of `{cls}`, which a TorchScript object does not have (torch: "
                           f"\"'{name}' is defined as a class attribute which currently is not supported\"); assign "
                           f"`self.{name}` in `__init__`")
            elif problem == "class-lookup":
                message = (f"`{cls}` has no attribute `{name}` TorchScript can read from the class (torch: 'Tried to "
                           f"lookup unknown attribute on class {cls}')")
            elif problem == "read-only":
                message = (f"`{name}` is a property of `{cls}` without a setter (torch: 'Tried to set read-only "
                           f"attribute: {name}'); add a setter, or assign another attribute")
            else:  # first-in-block
                message = (f"`self.{name}` is first assigned inside a block of `{cls}.__init__`; TorchScript defines a "
                           "class's attributes from the assignments at the top level of `__init__` (torch: 'First "
                           "assignment cannot be in a control-flow block'). Assign it before the `if`/loop first")
            ctx.report(result.node, message)

    def visit_Attribute(self, node: cst.Attribute, ctx: RuleContext) -> None:
        cls = script_class_owner(ctx)
        if cls is None or ctx.function.info.name == "__init__":
            return
        self_name = first_param_name(ctx.function.info.node)
        if not isinstance(node.value, cst.Name) or node.value.value != self_name:
            return
        name = node.attr.value
        if name.startswith("__") and name.endswith("__"):
            return
        defined = init_attributes(cls)
        if defined is None or name in defined:
            return
        class_level = _class_level_names(cls)
        if not class_level:
            return
        parent = ctx.parent
        if name in class_level:
            # A name the class body assigns a value (not a method): torch finds it on the Python class, not among
            # the object's attributes, and rejects it (`SimpleValue::attr`).
            if name in _class_level_values(cls) and name not in cls.methods:
                ctx.report(node, (
                    f"`{name}` is a class attribute of `{cls.name}`, which a TorchScript object does not have (torch: "
                    f"\"'{name}' is defined as a class attribute which currently is not supported\"); assign "
                    f"`self.{name}` in `__init__`"))
            return
        is_set = (
            isinstance(parent, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign)) and getattr(parent, "target", None) is node
        )
        if is_set:
            message = (
                f"`self.{name}` is set here but `{cls.name}.__init__` never assigns it ('Tried to set nonexistent "
                f"attribute: {name}. Did you forget to initialize it in __init__()?'); assign it in `__init__` first"
            )
        else:
            message = (
                f"`{cls.name}` has no attribute `{name}`: its `__init__` never assigns it, and a TorchScript class has "
                f"only the attributes `__init__` defines ('object has no attribute or method '{name}'. Did you forget "
                f"to initialize an attribute in __init__()?')"
            )
        ctx.report(node, message)


def _mentions(node: cst.CSTNode, name: str) -> bool:
    class Find(cst.CSTVisitor):
        found = False

        def visit_Name(self, n: cst.Name) -> None:
            if n.value == name:
                Find.found = True

        def visit_SimpleString(self, n: cst.SimpleString) -> None:
            if n.evaluated_value == name:
                Find.found = True

    walk(node, Find())
    return Find.found


class RecursiveClassAttribute(ScriptRule):
    code = "JIT621"
    name = "recursive-class-attribute"
    severity = "error"
    summary = (
        "`self.x = torch.jit.annotate(T, ...)`, `self.x: T = ...` or `self.x = param` (annotated `T`) in a "
        "TorchScript class's `__init__` where `T` contains the class itself (`Optional[Node]` in `Node`): "
        "TorchScript types cannot be recursive"
    )
    message = "attribute whose type contains its own TorchScript class"

    def visit_Assign(self, node: cst.Assign, ctx: RuleContext) -> None:
        cls = script_class_owner(ctx)
        if cls is None or ctx.function.info.name != "__init__":
            return
        if not _mentions_own_class(node.value, cls.name, ctx):
            return
        self_name = first_param_name(ctx.function.info.node)
        for target in node.targets:
            t = target.target
            if isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == self_name:
                ctx.report(
                    node,
                    f"`self.{t.attr.value}` is given a type that contains `{cls.name}` itself ('Assignment to "
                    f"attribute '{t.attr.value}' cannot be of a type that contains class ...'); TorchScript class types "
                    f"cannot be recursive: hold the values in lists of plain types, or an index into a list",
                )


    def visit_AnnAssign(self, node: cst.AnnAssign, ctx: RuleContext) -> None:
        cls = script_class_owner(ctx)
        if cls is None or ctx.function.info.name != "__init__" or node.value is None:
            return
        t = node.target
        self_name = first_param_name(ctx.function.info.node)
        if not (isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == self_name):
            return
        # The attribute takes the value's type: an empty list or dict is typed by the annotation, but `None`
        # stays NoneType (`self.next: Optional[Link] = None` compiles).
        typed_by_annotation = isinstance(node.value, (cst.List, cst.Dict)) and not node.value.elements
        if ((typed_by_annotation and _mentions(node.annotation.annotation, cls.name))
                or _mentions_own_class(node.value, cls.name, ctx)):
            ctx.report(node, (
                f"`self.{t.attr.value}` is given a type that contains `{cls.name}` itself ('Assignment to attribute "
                f"'{t.attr.value}' cannot be of a type that contains class ...'); TorchScript class types cannot be "
                f"recursive: hold the values in lists of plain types, or an index into a list"))


def _mentions_own_class(value: cst.BaseExpression, name: str, ctx: RuleContext) -> bool:
    """Whether the type torch gives `value` in `__init__` names the class `name`: `torch.jit.annotate(T, v)` with
    `T` naming it, or a parameter of `__init__` whose annotation names it (`children: List["Node"]`)."""
    if isinstance(value, cst.Call) and ctx.qualify(value.func) == "torch.jit.annotate" and value.args:
        return _mentions(value.args[0].value, name)
    if isinstance(value, cst.Name):
        function = ctx.function.info.node
        if value.value in assigned_names(function):
            return False  # rebound in the body: its type is not the parameter's
        param = params_of(function).get(value.value)
        return param is not None and param.annotation is not None and _mentions(param.annotation.annotation, name)
    return False


class IgnoredClassInstantiated(ScriptRule):
    code = "JIT622"
    name = "ignored-class-instantiated"
    severity = "error"
    summary = "compiled code builds an instance of a class decorated `@torch.jit.ignore`"
    message = "instance of an `@torch.jit.ignore` class built in compiled code"
    facts = (ScriptTypes,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # an nn.Module class called in compiled code: TorchScript never builds a module

        for result in results_for(self, node, ctx):
            if result.problem == "instantiate-parameter":
                ctx.report(result.node, f"compiled code cannot build an `nn.{result.cls}` (torch: \"Cannot instantiate "
                                        f"class '{result.cls}' in a script function\"); register it in `__init__` "
                                        "(`self.weight = nn.Parameter(...)`) and read it there, or use the tensor itself")
                continue
            ctx.report(result.node, f"`{result.cls}` is an nn.Module class, and compiled code cannot build a module "
                                    f"(torch: \"Cannot instantiate class '{result.cls}' in a script function\"); "
                                    "build it in `__init__` and call the submodule")

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        qualified = ctx.qualify(node.func)
        if qualified is None:
            return
        cls = ctx.project.resolve_class(qualified)
        if cls is None or not (decorator_names(cls.node, cls.module.imports) & _IGNORE):
            return
        ctx.report(
            node,
            f"`{cls.name}` is decorated `@torch.jit.ignore`, so compiled code cannot build it ('Cannot instantiate "
            f"class '{cls.name}' in a script function'); build it in `__init__`, or in an `@torch.jit.ignore` method",
        )


def _calls_an_init(function: cst.FunctionDef, self_name: str) -> bool:
    """Whether `__init__` may run `nn.Module.__init__`: it calls some `__init__`, or `super()`, or a method of its
    own (which may), or is something this check does not follow."""

    class Find(cst.CSTVisitor):
        found = False

        def on_visit(self, node: cst.CSTNode) -> bool:
            return not Find.found and super().on_visit(node)  # found (`super().__init__()` comes first): stop

        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if isinstance(func, cst.Name) and func.value in ("super", "setattr", "getattr", "exec", "eval"):
                Find.found = True
            elif isinstance(func, cst.Attribute):
                if func.attr.value.startswith("__") or (
                    isinstance(func.value, cst.Name) and func.value.value == self_name
                ):
                    Find.found = True

        def visit_Attribute(self, node: cst.Attribute) -> None:
            if node.attr.value in ("__init__", "__dict__", "__class__", "__setstate__"):
                Find.found = True

    walk(function, Find())
    return Find.found


class ModuleInitWithoutSuper(ScriptRule):
    code = "JIT623"
    name = "module-init-without-super"
    severity = "error"
    summary = "an `nn.Module` subclass whose `__init__` never calls `super().__init__()`, scripted"
    message = "module `__init__` that never calls `super().__init__()`"
    scope = "anywhere"
    outside_handlers = frozenset({"ClassDef"})
    text_hints = ("__init__",)
    reports_only_in = "module-class"
    checked_handlers = frozenset({("visit", "ClassDef")})

    def visit_ClassDef(self, node: cst.ClassDef, ctx: RuleContext) -> None:
        cls = ctx.module_class(node)
        if cls is None:
            return
        init = cls.methods.get("__init__")
        forward = ctx.project.find_method(cls, "forward")
        if init is None or forward is None or ctx.captured.get(forward.node) is None:
            return
        self_name = first_param_name(init.node)
        if self_name is None or init.decorators or _calls_an_init(init.node, self_name):
            return
        ctx.report(
            init.node.name,
            f"`{cls.name}.__init__` never calls `super().__init__()`, so the module is not initialised when torch "
            f"scripts it ('has not been initialized, did you forget to call 'super()'?'); call `super().__init__()` "
            f"first",
        )


_INPLACE = {
    "+=": "add", "-=": "sub", "*=": "mul", "/=": "truediv", "//=": "floordiv", "%=": "mod", "**=": "pow",
    "<<=": "lshift", ">>=": "rshift", "&=": "and", "|=": "or", "^=": "xor", "@=": "matmul",
}


def _only_constructed_as(name: str, function: cst.FunctionDef, ctx: RuleContext) -> ClassInfo | None:
    """The project class every binding of local `name` constructs (`a = Acc(...)`), if there is one such class and
    `name` is bound no other way."""
    classes: list[ClassInfo | None] = []
    other = False

    class Find(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            nonlocal other
            if any(isinstance(t.target, cst.Name) and t.target.value == name for t in node.targets):
                if len(node.targets) != 1 or not isinstance(node.value, cst.Call):
                    other = True
                else:
                    classes.append(ctx.project.resolve_class(ctx.qualify(node.value.func)))
            elif any(name in target_names(t.target) for t in node.targets):
                other = True

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            nonlocal other
            if name in target_names(node.target):
                other = True

        def visit_For(self, node: cst.For) -> None:
            nonlocal other
            if name in target_names(node.target):
                other = True

        def visit_AsName(self, node: cst.AsName) -> None:
            nonlocal other
            if name in target_names(node.name):
                other = True

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            nonlocal other
            if name in target_names(node.target):
                other = True

    walk(function.body, Find())
    params = function.params
    if other or not classes or any(p.name.value == name for p in (*params.posonly_params, *params.params, *params.kwonly_params)):
        return None
    first = classes[0]
    if first is None or any(cls is not first for cls in classes):
        return None
    return first


_ASSIGNMENTS: dict[int, tuple[cst.FunctionDef, list[cst.Assign]]] = {}


def _assignments(function: cst.FunctionDef) -> list[cst.Assign]:
    """The assignments `name = Call(...)` of a function, found once per function (a cheap filter)."""
    cached = _ASSIGNMENTS.get(id(function))
    if cached is not None and cached[0] is function:
        return cached[1]

    class Find(cst.CSTVisitor):
        found: list[cst.Assign] = []

        def visit_Assign(self, node: cst.Assign) -> None:
            if isinstance(node.value, cst.Call) and any(isinstance(t.target, cst.Name) for t in node.targets):
                self.found.append(node)

    finder = Find()
    finder.found = []
    walk(function.body, finder)
    if len(_ASSIGNMENTS) > 256:
        _ASSIGNMENTS.clear()
    _ASSIGNMENTS[id(function)] = (function, finder.found)
    return finder.found


class InplaceOperatorUndefined(ScriptRule):
    code = "JIT626"
    name = "inplace-op-undefined"
    severity = "error"
    summary = (
        "`a += b` where `a` holds an instance of a TorchScript class that defines neither `__iadd__` nor `__add__` "
        "(and likewise for the other augmented operators)"
    )
    message = "augmented assignment on a TorchScript class without the operator's method"
    facts = (ScriptTypes,)

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        # operators with no in-place magic method TorchScript knows (`|=`, `&=`, `<<=` ...) on a class instance

        for result in results_for(self, node, ctx):
            ctx.report(result.node, f"TorchScript maps only `+=`, `-=`, `*=`, `/=` and `%=` of a class instance to its "
                                    f"methods (torch: 'Unknown augmented assignment: {result.name}'); write "
                                    f"`a = a {result.name[:-1]} b`")

    def visit_AugAssign(self, node: cst.AugAssign, ctx: RuleContext) -> None:
        function = ctx.function
        if function is None or not isinstance(node.target, cst.Name):
            return
        operator = "".join(ctx.module.tree.code_for_node(node.operator).split())
        stem = _INPLACE.get(operator)
        if stem is None:
            return
        definition = function.info.node
        name = node.target.value
        if not any(
            isinstance(t.target, cst.Name) and t.target.value == name for a in _assignments(definition) for t in a.targets
        ):
            return  # never assigned a call's result: not an instance built here
        cls = _only_constructed_as(node.target.value, definition, ctx)
        if cls is None or ctx.project.is_module_class(cls) or cls.base_names:
            return
        if decorator_names(cls.node, cls.module.imports) - {"torch.jit.script"}:
            return  # a decorator (dataclass...) that may add methods
        wanted = (f"__i{stem}__", f"__{stem}__")
        if any(method in c.methods for c in ctx.project.mro(cls) for method in wanted):
            return
        ctx.report(
            node,
            f"`{node.target.value}` holds a `{cls.name}`, which defines neither `{wanted[0]}` nor `{wanted[1]}` "
            f"('Cannot emit inplace op on ... since it does not define an {wanted[0]} or {wanted[1]} method'); define "
            f"one of them on `{cls.name}`",
        )


class GlobalScriptModuleCall(ScriptRule):
    code = "JIT627"
    name = "global-scriptmodule-call"
    severity = "error"
    summary = (
        "compiled code calls a module-level ScriptModule (`sm = torch.jit.script(M())`, an instance of a "
        "`torch.jit.ScriptModule` subclass) that is not a submodule; a scripted function is fine"
    )
    message = "call of a ScriptModule that is not a submodule"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        func = node.func
        if ctx.function is None or not isinstance(func, cst.Name):
            return
        value = ctx.module.globals.get(func.value)
        if not isinstance(value, cst.Call) or _locally_bound(func.value, ctx.function.info.node):
            return
        qualified = ctx.qualify(value.func)
        scripted = qualified == "torch.jit.load"
        if qualified in ("torch.jit.script", "torch.jit.trace") and value.args:
            # Of a module instance: `torch.jit.script(f)` of a function gives a ScriptFunction, which compiled code
            # calls fine.
            built = value.args[0].value
            if isinstance(built, cst.Call):
                built_qualified = ctx.qualify(built.func) or ""
                cls = ctx.project.resolve_class(built_qualified)
                scripted = (cls is not None and ctx.project.is_module_class(cls)) or built_qualified.startswith("torch.nn.")
        elif not scripted:
            cls = ctx.project.resolve_class(qualified)
            scripted = cls is not None and "torch.jit.ScriptModule" in ctx.project.torch_bases(cls)
        if scripted:
            ctx.report(
                node,
                f"`{func.value}` is a ScriptModule held in a module-level variable, and compiled code can call a "
                f"ScriptModule only as a submodule ('Cannot call a ScriptModule that is not a submodule of the "
                f"caller'); make it an attribute of the calling module (`self.{func.value} = ...` in `__init__`)",
            )


def _locally_bound(name: str, function: cst.FunctionDef) -> bool:
    from jitlint.targets.script.scopes import bound_in, parameter_names

    return name in parameter_names(function) or name in bound_in(function.body)


class MethodWithoutSelf(ScriptRule):
    code = "JIT629"
    name = "method-without-self"
    severity = "error"
    summary = "a compiled method of a module or a TorchScript class that has no parameter for `self`"
    message = "a compiled method without a `self` parameter"

    def visit_FunctionDef(self, node: cst.FunctionDef, ctx: RuleContext) -> None:
        function = ctx.function
        if function is None or function.info.node is not node or function.info.cls is None:
            return
        if function.info.bound_first_param != "instance":
            return  # a staticmethod or classmethod
        params = node.params
        if params.posonly_params or params.params or isinstance(params.star_arg, cst.Param):
            return
        if params.star_kwarg is not None:
            return  # torch rejects the `**kwargs` first (JIT108)
        cls = function.info.cls
        if ctx.project.is_module_class(cls):
            # torch reads every compiled method's signature with `inspect.signature` of the bound method, which
            # has no parameter to bind the instance to.
            ctx.report(node.name, (
                f"`{cls.name}.{node.name.value}` is compiled as a method but has no parameter for `self` (torch: "
                f"'invalid method signature'); add `self`, or make it a `@staticmethod`"))
        else:
            ctx.report(node.name, (
                f"`{cls.name}.{node.name.value}` is a method of a TorchScript class without a `self` parameter "
                f"(torch: 'methods must have a self argument'); add `self`, or make it a `@staticmethod`"))

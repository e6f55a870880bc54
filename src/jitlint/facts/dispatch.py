"""Calls through a value: the project functions a call may reach when what it calls is not a name of a function but
a value that holds one (`ATTENTION[name](q, k, v)`, `fn = REGISTRY.get(name, default); fn(x)`).

A *registry* is a module-level variable whose value is a dict literal (`FUNCTIONS = {"a": f, "b": g}`), or an
instance of a project class that keeps such a dict as a class attribute (a `Mapping` whose class holds
`_mapping = {"sdpa": sdpa_forward, ...}`: `REGISTRY = Interface()`). Its values that name project functions are
what `REGISTRY[key]` may give; a *lookup* gives them too: `REGISTRY.get(key, default)`, or a method of the registry's
class whose every `return` is such a lookup on `self` or `super()` (its function arguments, the defaults, may be
given as well). A local name holds what any of its plain assignments in the calling function assigns.

What is followed is every function the value may hold, whichever key the model runs with: a capture that follows
these calls sees each implementation it may run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jitlint.facts import RunFact, run_fact
from jitlint.facts.constructions import calls_of
from jitlint.facts.signature import passed_to
from jitlint.facts.syntax import OneScope, returns_in, target_names
from jitlint.walk import walk

if TYPE_CHECKING:
    from jitlint.project import ClassInfo, FunctionInfo, ModuleInfo, ProjectIndex

_LOOKUPS = frozenset({"get", "__getitem__", "pop", "setdefault"})
_DEPTH = 8


class LocalValues(RunFact):
    """The values a function's plain assignments give each local name (`name = value`, `name: T = value`), not
    counting nested functions: ({name: [value, ...]}, the names bound any other way: a parameter, a loop target,
    unpacking...). A name of the second kind holds what is not known: it is left out of the first."""

    @classmethod
    def compute(cls, project, owner: cst.FunctionDef) -> tuple[dict[str, list[cst.BaseExpression]], set[str]]:
        values: dict[str, list[cst.BaseExpression]] = {}
        other: set[str] = set()
        params = owner.params
        for param in (*params.posonly_params, *params.params, *params.kwonly_params):
            other.add(param.name.value)

        class Assignments(OneScope):
            def visit_Assign(self, node: cst.Assign) -> None:
                for target in node.targets:
                    if isinstance(target.target, cst.Name):
                        values.setdefault(target.target.value, []).append(node.value)
                    else:
                        other.update(target_names(target.target))

            def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
                if isinstance(node.target, cst.Name) and node.value is not None:
                    values.setdefault(node.target.value, []).append(node.value)

            def visit_AugAssign(self, node: cst.AugAssign) -> None:
                other.update(target_names(node.target))

            def visit_For(self, node: cst.For) -> None:
                other.update(target_names(node.target))

            def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
                other.update(target_names(node.target))

            def visit_AsName(self, node: cst.AsName) -> None:
                other.update(target_names(node.name))

            def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
                other.add(node.name.value)
                return False

        walk(owner.body, Assignments())
        return {name: found for name, found in values.items() if name not in other}, other


def _global(project: "ProjectIndex", qualified: str | None) -> tuple["ModuleInfo", str] | None:
    """The module a module-level variable a qualified name refers to is in (following re-exports), and its name
    there."""
    for _ in range(_DEPTH):
        if not qualified or qualified.startswith(("builtins.", "torch.", "typing.")):
            return None
        module_name, _, attr = qualified.rpartition(".")
        module = project.module(module_name) if module_name else None
        if module is None or attr in module.functions or attr in module.classes:
            return None
        if attr in module.globals:
            return module, attr
        target = module.imports.aliases.get(attr)
        if target is None or target == qualified:
            return None
        qualified = target
    return None


def _dict_functions(project: "ProjectIndex", module: "ModuleInfo", value: cst.BaseExpression,
                    levels: int = 1) -> list:
    """The project functions a dict literal holds; with `levels` > 1, those of the dict literals it holds, that many
    subscripts deep (`ROUTINES[loss][backend]`). A `functools.partial(f, ...)` value holds `f`: Dynamo inlines the
    partial's function."""
    if not isinstance(value, cst.Dict):
        return []
    found = []
    for element in value.elements:
        if not isinstance(element, cst.DictElement):
            continue
        held = element.value
        if levels > 1:
            found.extend(f for f in _dict_functions(project, module, held, levels - 1) if f not in found)
            continue
        if (isinstance(held, cst.Call) and held.args and not held.args[0].keyword and not held.args[0].star
                and module.imports.qualify(held.func) == "functools.partial"):
            held = held.args[0].value
        function = project.resolve_function(module.imports.qualify(held))
        if function is not None and function not in found:
            found.append(function)
    return found


class Registry(RunFact):
    """The project functions a registry (a module-level variable of `module`, by name) holds, and the project class
    it is an instance of (None for a dict literal); None when the variable is not a registry."""

    @classmethod
    def compute(cls, project, module: "ModuleInfo", name: str,
                levels: int = 1) -> tuple[list, "ClassInfo | None"] | None:
        value = module.globals.get(name)
        if isinstance(value, cst.Dict):
            found = _dict_functions(project, module, value, levels)
            return (found, None) if found else None
        if levels > 1 or not isinstance(value, cst.Call):
            return None
        klass = project.resolve_class(module.imports.qualify(value.func))
        if klass is None:
            return None
        found = []
        for current in project.mro(klass):
            for attribute in current.own_attributes.values():
                for function in _dict_functions(project, current.module, attribute.class_value):
                    if function not in found:
                        found.append(function)
        return (found, klass) if found else None


def _registry(project: "ProjectIndex", module: "ModuleInfo", node: cst.BaseExpression, levels: int = 1):
    found = _global(project, module.imports.qualify(node))
    return run_fact(project, Registry, *found, levels) if found is not None else None


def _is_lookup(method: "FunctionInfo") -> bool:
    """Every `return` of the method gives `self[...]`, `self.get(...)` or `super().get(...)` (or another lookup)."""
    returns = returns_in(method.node)
    self_name = method.node.params.params[0].name.value if method.node.params.params else None

    def on_self(node: cst.BaseExpression) -> bool:
        if isinstance(node, cst.Name):
            return node.value == self_name
        return (isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "super"
                and not node.args)

    def lookup(value: cst.BaseExpression | None) -> bool:
        if isinstance(value, cst.Subscript):
            return on_self(value.value)
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
            return value.func.attr.value in _LOOKUPS and on_self(value.func.value)
        return False

    return bool(returns) and all(lookup(ret.value) for ret in returns)


class LookupMethod(RunFact):
    @classmethod
    def compute(cls, project, method: "FunctionInfo") -> bool:
        return _is_lookup(method)


def possible_callees(project: "ProjectIndex", caller: "FunctionInfo", value: cst.BaseExpression) -> list:
    """The project functions `value` (what a call in `caller` calls) may hold, through registries and local names;
    empty when none is known."""
    found: list = []
    _collect(project, caller, value, found, 0)
    return found


def _collect(project, caller: "FunctionInfo", value: cst.BaseExpression, found: list, depth: int) -> None:
    if depth > _DEPTH:
        return
    module = caller.module
    if isinstance(value, cst.Name):
        local, unknown = run_fact(project, LocalValues, caller.node)
        if value.value in unknown:
            return
        for assigned in local.get(value.value, ()):
            _collect(project, caller, assigned, found, depth + 1)
        if value.value in local:
            return
    if isinstance(value, (cst.Name, cst.Attribute)):
        function = project.resolve_function(module.imports.qualify(value))
        if function is not None and function not in found:
            found.append(function)
        return
    if isinstance(value, cst.IfExp):
        _collect(project, caller, value.body, found, depth + 1)
        _collect(project, caller, value.orelse, found, depth + 1)
        return
    if isinstance(value, cst.Subscript):
        levels, base = 1, value.value
        while isinstance(base, cst.Subscript):  # a registry of registries: `ROUTINES[loss][backend]`
            levels, base = levels + 1, base.value
        registry = _registry(project, module, base, levels)
        if registry is not None:
            found.extend(function for function in registry[0] if function not in found)
        return
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
        registry = _registry(project, module, value.func.value)
        if registry is None:
            return
        functions, klass = registry
        name = value.func.attr.value
        if name not in _LOOKUPS:
            method = project.find_method(klass, name) if klass is not None else None
            if method is None or not run_fact(project, LookupMethod, method):
                return
        found.extend(function for function in functions if function not in found)
        for arg in value.args:  # a default the lookup may give
            if not arg.star:
                _collect(project, caller, arg.value, found, depth + 1)


# -- methods of a submodule: `self.<attribute>.<method>(...)` -------------------------------------------------------
def _classes_of(project: "ProjectIndex", function: cst.FunctionDef | None, imports, value: cst.BaseExpression,
                found: list, depth: int) -> None:
    """The project classes `value` (an expression of `function`, or of a module's top level when None) may be an
    instance of: a call of a class, either side of `a or b` / `a if c else b`, what a local name is assigned."""
    if depth > _DEPTH:
        return
    if isinstance(value, cst.Call):
        klass = project.resolve_class(imports.qualify(value.func))
        if klass is not None and klass not in found:
            found.append(klass)
        elif klass is None and isinstance(value.func, cst.Subscript):
            found.extend(klass for klass in _class_table(project, imports, value.func.value) if klass not in found)
        elif klass is None:  # a class a factory function returns: `solver_fn = select(method); solver_fn(...)`
            found.extend(klass for klass in _returned_classes(project, function, imports, value.func, depth)
                         if klass not in found)
    elif isinstance(value, cst.BooleanOperation):
        _classes_of(project, function, imports, value.left, found, depth + 1)
        _classes_of(project, function, imports, value.right, found, depth + 1)
    elif isinstance(value, cst.IfExp):
        _classes_of(project, function, imports, value.body, found, depth + 1)
        _classes_of(project, function, imports, value.orelse, found, depth + 1)
    elif isinstance(value, cst.Name) and function is not None:
        local, _unknown = run_fact(project, LocalValues, function)
        for assigned in local.get(value.value, ()):
            _classes_of(project, function, imports, assigned, found, depth + 1)


def _returned_classes(project: "ProjectIndex", function: cst.FunctionDef | None, imports,
                      value: cst.BaseExpression, depth: int) -> list:
    """The project classes `value` (what is called to build an object) may be when it is the result of a call of a
    project function every `return` of which gives a project class (`def select(method): if ...: return Euler ...`),
    directly or through a local name assigned such a call."""
    if depth > _DEPTH:
        return []
    found: list = []
    if isinstance(value, cst.Name) and function is not None:
        local, unknown = run_fact(project, LocalValues, function)
        if value.value in unknown:
            return []
        for assigned in local.get(value.value, ()):
            found.extend(k for k in _returned_classes(project, function, imports, assigned, depth + 1) if k not in found)
        return found
    if not isinstance(value, cst.Call):
        return []
    factory = project.resolve_function(imports.qualify(value.func))
    if factory is None:
        return []
    return list(run_fact(project, FactoryClasses, factory))


class FactoryClasses(RunFact):
    """The project classes a function returns when every `return` of it gives one (a class name); () otherwise."""

    @classmethod
    def compute(cls, project, factory: "FunctionInfo") -> tuple:
        returns = returns_in(factory.node)
        found: list = []
        for ret in returns:
            klass = (project.resolve_class(factory.module.imports.qualify(ret.value))
                     if isinstance(ret.value, (cst.Name, cst.Attribute)) else None)
            if klass is None:
                return ()
            if klass not in found:
                found.append(klass)
        return tuple(found)


def _class_table(project: "ProjectIndex", imports, node: cst.BaseExpression) -> list:
    """The project classes a module-level dict, list or tuple literal (`node` names it) holds as values or elements:
    what `TABLE[key]` may be, whichever key is given."""
    found = _global(project, imports.qualify(node))
    if found is None:
        return []
    return run_fact(project, ClassTable, *found)


class ClassTable(RunFact):
    """The project classes a module-level variable (of `module`, by name) holds when its value is a dict, list or
    tuple literal (`SOLVERS = {"euler": Euler, "rk4": RK4}`); empty otherwise."""

    @classmethod
    def compute(cls, project, module: "ModuleInfo", name: str) -> list:
        value = module.globals.get(name)
        if isinstance(value, cst.Dict):
            entries = [element.value for element in value.elements if isinstance(element, cst.DictElement)]
        elif isinstance(value, (cst.List, cst.Tuple)):
            entries = [element.value for element in value.elements if isinstance(element, cst.Element)]
        else:
            return []
        found = []
        for entry in entries:
            klass = project.resolve_class(module.imports.qualify(entry))
            if klass is not None and klass not in found:
                found.append(klass)
        return found


class PassedClasses(RunFact):
    """The project classes the project passes to each parameter of a class's `__init__` where it builds one
    (`Model(block=Block(...))`, `block = kwargs.pop("block", None) or Block(...); Model(block=block)`), in the
    modules of the run that name the class: {parameter name: [class, ...]}."""

    @classmethod
    def compute(cls, project, klass: "ClassInfo") -> dict[str, list]:
        init = project.find_method(klass, "__init__")
        if init is None:
            return {}
        passed: dict[str, list] = {}
        for module in list(project.modules.values()):
            if module.text is not None and klass.name not in module.text:
                continue
            imports = module.imports
            for node, _init_of, function in calls_of(project, module).ordered:
                if project.resolve_class(imports.qualify(node.func)) is not klass:
                    continue
                for name, index in passed_to(init.node, node, bound=True).items():
                    _classes_of(project, function, imports, node.args[index].value, passed.setdefault(name, []), 0)
        return passed


def _parameter_of_init(klass: "ClassInfo", value: cst.BaseExpression) -> str | None:
    """The `__init__` parameter an attribute's assigned value names (`self.block = block`), if it is one."""
    init = klass.methods.get("__init__")
    if init is None or not isinstance(value, cst.Name):
        return None
    params = init.node.params
    names = {param.name.value for param in (*params.posonly_params, *params.params, *params.kwonly_params)}
    return value.value if value.value in names else None


def attribute_classes(project: "ProjectIndex", owner: "ClassInfo", name: str) -> list:
    """The project classes `self.<name>` of `owner` may hold: the classes assigned to it, and those the project
    passes to the `__init__` parameter assigned to it."""
    info = project.attributes(owner).get(name)
    if info is None:
        return []
    found = []
    for constructor in sorted(info.constructors):
        klass = project.resolve_class(constructor)
        if klass is not None and klass not in found:
            found.append(klass)
    for current in project.mro(owner):
        own = current.own_attributes.get(name)
        for value in own.init_values if own is not None else ():
            parameter = _parameter_of_init(current, value.node)
            if parameter is not None:
                for klass in run_fact(project, PassedClasses, current).get(parameter, ()):
                    if klass not in found:
                        found.append(klass)
    return found


def submodule_methods(project: "ProjectIndex", caller: "FunctionInfo", func: cst.BaseExpression) -> list:
    """The methods `self.<attribute>.<method>` (what a call in a method of `caller`'s class calls) may be: that
    method of each project class the attribute may hold."""
    if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Attribute)
            and isinstance(func.value.value, cst.Name) and caller.cls is not None and caller.bound_first_param):
        return []
    params = caller.node.params.params
    if not params or func.value.value.value != params[0].name.value:
        return []
    found = []
    for klass in attribute_classes(project, caller.cls, func.value.attr.value):
        method = project.find_method(klass, func.attr.value)
        if method is not None and method not in found:
            found.append(method)
    return found


def instance_methods(project: "ProjectIndex", caller: "FunctionInfo", func: cst.BaseExpression) -> list:
    """The methods `<name>.<method>` (what a call in `caller` calls, `name` a local name) may be, with the class each
    is looked up on: that method of each project class the name's assignments build (`solver = Euler(...)`,
    `solver = SOLVERS[method](...)` with `SOLVERS` a module-level table of classes). [(method, class), ...]"""
    if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)):
        return []
    found = []
    classes: list = []
    _classes_of(project, caller.node, caller.module.imports, func.value, classes, 0)
    for klass in classes:
        method = project.find_method(klass, func.attr.value)
        if method is not None and method.bound_first_param == "instance" and (method, klass) not in found:
            found.append((method, klass))
    return found

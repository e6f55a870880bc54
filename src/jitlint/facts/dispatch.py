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


def _dict_functions(project: "ProjectIndex", module: "ModuleInfo", value: cst.BaseExpression) -> list:
    if not isinstance(value, cst.Dict):
        return []
    found = []
    for element in value.elements:
        if isinstance(element, cst.DictElement):
            function = project.resolve_function(module.imports.qualify(element.value))
            if function is not None and function not in found:
                found.append(function)
    return found


class Registry(RunFact):
    """The project functions a registry (a module-level variable of `module`, by name) holds, and the project class
    it is an instance of (None for a dict literal); None when the variable is not a registry."""

    @classmethod
    def compute(cls, project, module: "ModuleInfo", name: str) -> tuple[list, "ClassInfo | None"] | None:
        value = module.globals.get(name)
        if isinstance(value, cst.Dict):
            found = _dict_functions(project, module, value)
            return (found, None) if found else None
        if not isinstance(value, cst.Call):
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


def _registry(project: "ProjectIndex", module: "ModuleInfo", node: cst.BaseExpression):
    found = _global(project, module.imports.qualify(node))
    return run_fact(project, Registry, *found) if found is not None else None


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
        registry = _registry(project, module, value.value)
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

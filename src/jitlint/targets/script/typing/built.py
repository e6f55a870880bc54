"""The module classes a value `__init__` stores was built from, when the source says which.

torch types a submodule by the instance's runtime class (`infer_concrete_type_builder` on the value `__init__`
left), whatever expression built it. Besides a class called by name (the project index's "module" kind), the value
may come from:

- a factory function of the project (`self.conv = conv3x3_block(...)`): an instance of a class one of its `return`
  statements builds;
- a class held by a parameter of `__init__` (`self.act = act_layer()`): the class the parameter holds in the
  default configuration (its default value) or one a construction site in the project passes for it (a call of
  the class or of a subclass that keeps its `__init__`, or a subclass's `super().__init__(...)`), followed through
  the parameters of the enclosing `__init__`;
- a conditional expression of those (`act_layer() if act_layer else nn.Identity()`).

Anything else (a parameter re-bound in the body, a site passing `*args`/`**kwargs` or a value whose class the
source does not show, a factory returning something else) leaves the classes unknown: no answer rather than a
wrong one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

from jitlint.facts import RunFact, run_fact
from jitlint.facts.config_flags import is_super_init
from jitlint.facts.constructions import calls_of
from jitlint.facts.signature import passed_to
from jitlint.facts.syntax import OneScope, assigned_names, bindings, returns_in, target_names
from jitlint.facts.torch_api import is_torch_module_base
from jitlint.names import ImportTable
from jitlint.project import CONTAINER_KINDS
from jitlint.targets.script.typing.annotations import is_none, named_params
from jitlint.walk import walk

if TYPE_CHECKING:
    from jitlint.project import ClassInfo, FunctionInfo, ProjectIndex

_DEPTH = 4
_PARTIAL = frozenset({"functools.partial"})


@dataclass(frozen=True)
class Classes:
    """Module classes a value may be an instance of: project classes (in a stable order) and torch classes."""

    project: tuple["ClassInfo", ...] = ()
    torch: tuple[str, ...] = ()

    def __or__(self, other: "Classes") -> "Classes":
        project = self.project + tuple(c for c in other.project if all(c is not mine for mine in self.project))
        return Classes(project, self.torch + tuple(q for q in other.torch if q not in self.torch))


@dataclass(frozen=True)
class _Site:
    """A call that constructs a class: the call, the imports of its file, and the `__init__` it is written in (with
    its class) when it is in one."""

    call: cst.Call
    imports: ImportTable
    init_of: "ClassInfo | None"
    function: cst.FunctionDef | None  # the function the call is written in


class BuiltClasses:
    """Answers `value_classes` for one project (construction sites found once per file)."""

    def __init__(self, project: "ProjectIndex") -> None:
        self.project = project

    def value_classes(self, node: cst.BaseExpression, imports: ImportTable, owner: "ClassInfo | None",
                      function: "FunctionInfo | None", depth: int = 0) -> Classes | None:
        """The module classes `node` (an expression of `function`, `__init__` of `owner` or a factory) builds."""
        if depth > _DEPTH:
            return None
        if isinstance(node, cst.IfExp):
            body = self.value_classes(node.body, imports, owner, function, depth)
            orelse = self.value_classes(node.orelse, imports, owner, function, depth)
            return body | orelse if body is not None and orelse is not None else None
        if not isinstance(node, cst.Call):
            return None
        func = node.func
        if isinstance(func, cst.Name) and function is not None and (
                func.value in _param_names(function) or func.value in _bound_names(function.node)):
            return self.class_value(func, imports, owner, function, depth + 1)
        qualified = imports.qualify(func)
        if qualified is None:
            return None
        if qualified.startswith("torch."):
            if is_torch_module_base(qualified) and qualified not in CONTAINER_KINDS:
                return Classes(torch=(qualified,))
            return None
        target = self.project.resolve(qualified)
        if target is None:
            return None
        if hasattr(target, "methods"):  # a class
            if self.project.is_module_class(target) and self.project.container_kind(target) is None:
                return Classes(project=(target,))
            return None
        return self._returned(target, depth + 1)

    def _returned(self, function: "FunctionInfo", depth: int) -> Classes | None:
        """The classes a factory function's `return` statements build (each must build one)."""
        if function.cls is not None or depth > _DEPTH:
            return None
        found = Classes()
        returns = _returns(function.node)
        if not returns:
            return None
        for value in returns:
            classes = self.value_classes(value, function.module.imports, None, function, depth)
            if classes is None:
                return None
            found = found | classes
        return found

    def param_classes(self, owner: "ClassInfo", init: "FunctionInfo", name: str, depth: int) -> Classes | None:
        """The classes parameter `name` of `owner`'s `__init__` holds: its default and what sites pass."""
        if depth > _DEPTH or name in assigned_names(init.node):
            return None
        params = named_params(init.node.params)[1:]
        param = next((p for p in params if p.name.value == name), None)
        if param is None:
            return None
        found = Classes()
        if param.default is not None and not is_none(param.default):
            default = self.class_reference(param.default, init.module.imports)
            if default is None:
                return None
            found = default
        positional = param in init.node.params.params or param in init.node.params.posonly_params
        for site in run_fact(self.project, _Sites, owner):
            passed = _argument(init.node, site.call, name, positional, site.function)
            if passed is False:
                return None  # `*args` or `**kwargs` may hold it
            if passed is None:
                continue  # the default
            outer = site.init_of.methods.get("__init__") if site.init_of is not None else None
            classes = self.class_value(passed, site.imports, site.init_of, outer, depth + 1) if (
                outer is not None and outer.node is site.function) else self.class_reference(passed, site.imports)
            if classes is None:
                return None
            found = found | classes
        return found if found.project or found.torch else None

    def class_value(self, node: cst.BaseExpression, imports: ImportTable, owner: "ClassInfo | None",
                    function: "FunctionInfo | None", depth: int) -> Classes | None:
        """The module classes an expression of `function` evaluates to (a class, not an instance): a class written
        as a value, a parameter of `owner`'s `__init__`, a local assigned only those, a conditional of them,
        or what a project function returns (`Conv2d = get_same_padding_conv2d(...)`)."""
        if depth > _DEPTH:
            return None
        if isinstance(node, cst.IfExp):
            body = self.class_value(node.body, imports, owner, function, depth)
            orelse = self.class_value(node.orelse, imports, owner, function, depth)
            return body | orelse if body is not None and orelse is not None else None
        if isinstance(node, cst.Name) and function is not None:
            if node.value in _param_names(function):
                if owner is None or function.name != "__init__":
                    return None
                return self.param_classes(owner, function, node.value, depth + 1)
            bound = _bound_names(function.node)
            if node.value in bound:
                # a local: one of the classes its assignments give it (each binding must be an assignment)
                values = [value for name, value in _assignments(function.node) if name == node.value]
                if len(values) != bound.count(node.value):
                    return None
                found = Classes()
                for value in values:
                    classes = self.class_value(value, imports, owner, function, depth + 1)
                    if classes is None:
                        return None
                    found = found | classes
                return found
        if isinstance(node, cst.Call) and not (
                isinstance(node.func, (cst.Name, cst.Attribute)) and imports.qualify(node.func) in _PARTIAL):
            target = self.project.resolve(imports.qualify(node.func)) if isinstance(
                node.func, (cst.Name, cst.Attribute)) else None
            if target is None or hasattr(target, "methods") or target.cls is not None:
                return None
            returns = _returns(target.node)
            found = Classes()
            for value in returns:
                classes = self.class_value(value, target.module.imports, None, target, depth + 1)
                if classes is None:
                    return None
                found = found | classes
            return found if returns else None
        return self.class_reference(node, imports)

    def class_reference(self, node: cst.BaseExpression, imports: ImportTable) -> Classes | None:
        """A module class written as a value: `nn.GELU`, `Block`, `partial(nn.GELU, approximate="tanh")`."""
        if isinstance(node, cst.Call) and imports.qualify(node.func) in _PARTIAL and node.args and not (
                node.args[0].star or node.args[0].keyword):
            node = node.args[0].value
        if not isinstance(node, (cst.Name, cst.Attribute)):
            return None
        qualified = imports.qualify(node)
        if qualified is None:
            return None
        if qualified.startswith("torch."):
            return Classes(torch=(qualified,)) if is_torch_module_base(qualified) and (
                qualified not in CONTAINER_KINDS) else None
        cls = self.project.resolve_class(qualified)
        if cls is None or not self.project.is_module_class(cls) or self.project.container_kind(cls) is not None:
            return None
        return Classes(project=(cls,))


def _param_names(function: "FunctionInfo") -> set[str]:
    params = function.node.params
    names = {param.name.value for param in named_params(params)}
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            names.add(star.name.value)
    return names


def _argument(init: cst.FunctionDef, call: cst.Call, name: str, positional: bool, function: cst.FunctionDef | None):
    """What a construction site passes for a parameter of `init`: the expression, None (nothing: the default), or
    False (a `*args` or `**kwargs` that may hold it; `**options` of a local bound only to dict displays of other
    string keys does not)."""
    passed = passed_to(init, call, bound=True)
    if name in passed:
        return call.args[passed[name]].value
    for argument in call.args:
        if argument.star == "*" and positional:
            return False
        if argument.star == "**":
            keys = _dict_keys(function, argument.value.value) if (
                isinstance(argument.value, cst.Name) and function is not None) else None
            if keys is None or name in keys:
                return False
    return None


def _dict_keys(function: cst.FunctionDef, name: str) -> frozenset[str] | None:
    """The keys of local `name` when every binding of it in `function` is a dict display of string keys or a
    `dict(key=...)` call (None otherwise, or when it is a parameter)."""
    if any(param.name.value == name for param in named_params(function.params)):
        return None
    keys: set[str] = set()
    values = [value for target, value in _assignments(function) if target == name]
    if not values or len(values) != sum(1 for bound in _bound_names(function) if bound == name):
        return None
    for value in values:
        if isinstance(value, cst.Dict) and all(
                isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString) for e in value.elements):
            keys |= {e.key.evaluated_value for e in value.elements}
        elif isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "dict" and all(
                a.keyword is not None and not a.star for a in value.args):
            keys |= {a.keyword.value for a in value.args}
        else:
            return None
    return frozenset(keys)


def _assignments(function: cst.FunctionDef) -> list[tuple[str, cst.BaseExpression]]:
    """`name = value` statements of a function's own code (not of nested functions), in source order."""
    found: list[tuple[str, cst.BaseExpression]] = []

    class Assignments(OneScope):
        scope = function

        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                if isinstance(target.target, cst.Name):
                    found.append((target.target.value, node.value))

    walk(function, Assignments())
    return found


def _bound_names(function: cst.FunctionDef) -> list[str]:
    """Every binding of a name in `function`'s body, once per binding (assignments, loops, `with`, augmented)."""
    return [name for _binding, target in bindings(function.body, into_functions=False)
            for name in target_names(target)]


def _returns(function: cst.FunctionDef) -> list[cst.BaseExpression]:
    """The values a function's `return` statements give (none when one returns nothing)."""
    returns = returns_in(function)
    return [] if any(node.value is None for node in returns) else [node.value for node in returns]


class _Sites(RunFact):
    """The calls in the project that construct a class through its `__init__`: calls of the class, of a subclass
    that does not define `__init__`, and `super().__init__(...)` in a subclass's `__init__` (positions count after
    `self`, as in a call of the class)."""

    @classmethod
    def compute(cls, project: "ProjectIndex", owner: "ClassInfo") -> list[_Site]:
        classes = [owner]
        supers: list["ClassInfo"] = []
        for other in _project_classes(project):
            if other is owner or all(base is not owner for base in project.mro(other)[1:]):
                continue
            own_init = "__init__" in other.methods
            between = project.mro(other)[1:project.mro(other).index(owner)]
            if any("__init__" in middle.methods for middle in between):
                continue  # constructed through an `__init__` in between, whose own sites count there
            (supers if own_init else classes).append(other)
        sites: list[_Site] = []
        for current in classes:
            for module in list(project.modules.values()):
                if module.text is not None and current.name not in module.text:
                    continue
                for call, init_of, function in calls_of(project, module).by_name.get(current.name, ()):
                    if project.resolve_class(module.imports.qualify(call.func)) is current:
                        sites.append(_Site(call, module.imports, init_of, function))
        for sub in supers:
            for call, init_of, function in calls_of(project, sub.module).by_name.get("__init__", ()):
                if init_of is sub and is_super_init(call):
                    sites.append(_Site(call, sub.module.imports, init_of, function))
        return sites


def _project_classes(project: "ProjectIndex") -> list["ClassInfo"]:
    return run_fact(project, _AllClasses, project)


class _AllClasses(RunFact):
    @classmethod
    def compute(cls, project: "ProjectIndex", owner) -> list["ClassInfo"]:
        return [c for module in list(project.modules.values()) for c in module.classes.values()]

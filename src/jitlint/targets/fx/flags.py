"""How a traced root is configured when built with its constructor's defaults (the model checked): the bool a
configuration flag attribute holds, the keyword literals elsewhere in the project that may build it otherwise,
and the class of each module a container's constructor expression holds."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import libcst as cst

from jitlint.facts.torch_api import CONTAINER_KINDS, is_torch_module_base
from jitlint.targets.fx.external import external_callable
from jitlint.targets.fx.literals import literal_value
from jitlint.targets.fx.scan import GivenOn, KeywordLiterals, SuperInitKeywords
from jitlint.walk import walk

if TYPE_CHECKING:
    from jitlint.project import ClassInfo, ProjectIndex

_UNSET = cst.Name("__unset__")  # an `__init__` parameter whose value is not known (see `init_defaults`)


def collect_passed_literals(project: "ProjectIndex") -> dict[str, list]:
    """The bool literals the project's code passes by keyword (`f(flag=True)`, `dict(flag=True)`,
    `{"flag": True}`): keyword -> [(literal, the project module class whose constructor receives it, or None)].
    Those given to `super().__init__` are left out: they are part of a class's own construction
    (`init_defaults`)."""
    found: dict[str, dict] = {}
    collector = KeywordLiterals()
    for module in list(project.modules.values()):
        text = module.text
        if text is not None and "True" not in text and "False" not in text:
            continue
        collector.found = {}
        walk(module.tree, collector)
        for keyword, passed in collector.found.items():
            for constant, receiver in passed:
                if receiver is not None and receiver[0] == "super":
                    continue
                built = None
                if receiver is not None:
                    qualified = module.imports.qualify(receiver[1])
                    target = project.resolve_class(qualified) if qualified else None
                    built = target if target is not None and project.is_module_class(target) else None
                found.setdefault(keyword, {})[(constant, id(built))] = (constant, built)
    return {keyword: list(passed.values()) for keyword, passed in found.items()}


def literals_for(project: "ProjectIndex", found: dict[str, list], cls: "ClassInfo", keyword: str,
                 cache: dict) -> set:
    """Of `collect_passed_literals`' literals for `keyword`, those that may configure a module of class `cls`: one
    given to the constructor of another project class builds that class, not `cls`, unless that constructor may
    give the keyword on to a module of class `cls` (`gives_on`)."""
    return {constant for constant, built in found.get(keyword, ())
            if built is None or built is cls or gives_on(project, built, cls, keyword, cache)}


def gives_on(project: "ProjectIndex", built: "ClassInfo", cls: "ClassInfo", keyword: str, cache: dict,
             seen: frozenset = frozenset()) -> bool:
    """Whether building `built` with `keyword` may pass it on to the constructor of a module of class `cls`:
    a call of its `__init__`s (other than `super().__init__`) that takes `**` or names the keyword, whose callee
    is `cls`, a project module class that gives it on in turn, or anything not known (a factory, a variable)."""
    key = (id(built), id(cls), keyword)
    if key in cache:
        return cache[key]
    cache[key] = False  # a cycle gives nothing on
    result = False
    for current in project.mro(built):
        init = current.methods.get("__init__")
        if init is None or result:
            continue
        collector = GivenOn(init.node, keyword)
        walk(init.node, collector)
        for func in collector.found:
            qualified = init.module.imports.qualify(func)
            if qualified and qualified.startswith(("torch.", "builtins.")):
                continue
            target = project.resolve_class(qualified) if qualified else None
            if target is None or not project.is_module_class(target) or target is cls or (
                    id(target) not in seen and gives_on(project, target, cls, keyword, cache, seen | {id(built)})):
                result = True
                break
    cache[key] = result
    return result


def init_defaults(project: "ProjectIndex", cls: "ClassInfo") -> dict[str, cst.BaseExpression]:
    """What each `__init__` parameter of the classes of `cls`'s MRO holds when `cls` is built with its defaults:
    a parameter's default, unless a subclass's `__init__` gives it by keyword to `super().__init__(...)`
    (`super().__init__(cross_attend=True, **kwargs)`: True). One dictionary by name: a subclass's own parameter
    given on as something else than itself makes the name unknown."""
    defaults: dict[str, cst.BaseExpression] = {}
    for current in project.mro(cls):
        init = current.methods.get("__init__")
        if init is None:
            continue
        params = (*init.node.params.params, *init.node.params.kwonly_params)
        own = {param.name.value for param in params}
        for param in params:
            if param.default is not None:
                defaults.setdefault(param.name.value, param.default)
        collector = SuperInitKeywords(init.node)
        walk(init.node, collector)
        for arg in collector.found:
            keyword = arg.keyword.value
            if isinstance(arg.value, cst.Name) and arg.value.value == keyword and keyword in own:
                continue  # its own parameter passed on
            if keyword in own:
                defaults[keyword] = _UNSET  # the subclass's parameter and the base's differ
            else:
                defaults.setdefault(keyword, arg.value)
    return defaults


def default_flag(project: "ProjectIndex", cls: "ClassInfo", info, passed: Callable[[str], set]) -> bool | None:
    """The bool a configuration flag holds in the module built with the defaults of `__init__`: what every
    assignment in `__init__` gives it, a literal or an `__init__` parameter with a literal default or one a
    subclass gives `super().__init__` (None when they differ, or one is anything else, or `passed`, the literals
    that may configure `cls`, hold another value for that parameter)."""
    defaults = init_defaults(project, cls)
    found: set[bool] = set()
    for value in info.init_values:
        node = value.node
        if isinstance(node, cst.Name) and node.value in defaults:
            if passed(node.value) - {literal_value(defaults[node.value])}:
                return None  # the project builds this module with the flag set otherwise too
            node = defaults[node.value]
        constant = literal_value(node)
        if not isinstance(constant, bool):
            return None
        found.add(constant)
    return found.pop() if len(found) == 1 else None


def element_class(project: "ProjectIndex", item: cst.BaseExpression | None,
                  imports) -> "ClassInfo | str | frozenset | None":
    """The class of the module a container's element expression builds (a project ClassInfo or a torch.nn
    qualified name); for `A(...) if c else B(...)`, both (a frozenset); None when not known."""
    if isinstance(item, cst.IfExp):
        both = (element_class(project, item.body, imports), element_class(project, item.orelse, imports))
        if any(found is None for found in both):
            return None
        return frozenset(c for found in both for c in (found if isinstance(found, frozenset) else (found,)))
    if not isinstance(item, cst.Call):
        return None
    qualified = imports.qualify(item.func) or ""
    if qualified.startswith("torch.nn.") and is_torch_module_base(qualified):
        return None if qualified in CONTAINER_KINDS else qualified
    external = external_callable(qualified)
    if external is not None and external.kind == "module":
        return None if external.built_to_trace(item) else qualified
    target = project.resolve_class(qualified)
    return target if target is not None and project.is_module_class(target) else None

"""A module's configuration flags as built with the defaults of its constructor: one fact every tracing target reads.

A tracer reads a bool attribute of a module (`self.use_conv`, set in `__init__`) as the Python value it holds: FX
while tracing evaluates `if self.flag:` on that bool, and Dynamo wraps it as a constant guarded by `CONSTANT_MATCH`
(`torch/_dynamo/variables/builder.py`), so only one side of `if self.flag:` / `self.flag and f()` is traced.
The model judged is the one built with the defaults of `__init__`. `class_flag` gives the bool a flag holds there,
or None when that is not decided. A flag is decided when every `__init__` assignment gives it
- a bool literal;
- an `__init__` parameter whose value when built with the defaults is a bool literal (its default, or the keyword a
  subclass gives `super().__init__(flag=True, ...)`: counted per subclass, `init_defaults`), and which no call of
  the project passes the other way to a constructor that may build this class (`passed_literals`: a literal given
  to another project module class counts only if that class may hand the keyword on to this one);
- or the same-named flag of another object (`self.flag = self.model.flag`: the wrapped network's), decided over the
  project's module classes that set that flag themselves (the other wrappers, which copy it, do not count).
A flag assigned outside `__init__` (`self._warned = True` in forward) is state, not configuration: never decided;
nor is a registered buffer or parameter.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import libcst as cst

from jitlint.facts import RunFact, run_fact
from jitlint.facts.syntax import OneScope, names_in
from jitlint.literals import UNKNOWN as LITERAL_UNKNOWN, literal_value
from jitlint.walk import walk

if TYPE_CHECKING:
    from jitlint.project import ClassInfo, ProjectIndex

__all__ = ["class_flag", "init_defaults", "is_super_init", "passed_literals"]

_UNSET = cst.Name("__unset__")  # an `__init__` parameter whose value is not known (see `init_defaults`)
_COPIED = "copied"  # a flag copied from another object's, seen while deciding that flag over the project


def is_super_init(node: cst.Call) -> bool:
    """`super().__init__(...)` or `super(C, self).__init__(...)`."""
    func = node.func
    return (isinstance(func, cst.Attribute) and func.attr.value == "__init__" and isinstance(func.value, cst.Call)
            and isinstance(func.value.func, cst.Name) and func.value.func.value == "super")


def _bool(node: cst.BaseExpression | None) -> bool | None:
    value = literal_value(node)
    return value if isinstance(value, bool) else None


def _computed(node: cst.BaseExpression) -> bool:
    """A value read from data where it is passed (`flags[i]`, `f(cfg)`, `not blocks[i]`): one that indexes or calls.
    Names, attributes and what is built from them alone (`not strict`) hand on a value decided elsewhere."""
    found: list[cst.CSTNode] = []

    class Find(cst.CSTVisitor):
        def visit_Subscript(self, sub: cst.Subscript) -> None:
            found.append(sub)

        def visit_Call(self, call: cst.Call) -> None:
            found.append(call)

    walk(node, Find())
    return bool(found) and literal_value(node) is LITERAL_UNKNOWN


class _KeywordLiterals(cst.CSTVisitor):
    """The bool literals passed as one keyword (`f(flag=True)`, `dict(flag=False)`, `{"flag": True}`; a value
    read from data at the call, `f(flag=flags[i])`, counts as both), each with
    what receives it: `("call", func)` for a call, `("super", class name)` for `super().__init__(...)` in a class's
    method, None for a dict item."""

    def __init__(self, keyword: str) -> None:
        self.keyword = keyword
        self.found: set = set()
        self._classes: list[str] = []

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.append(node.name.value)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._classes.pop()

    def visit_Call(self, node: cst.Call) -> None:
        receiver = ("super", self._classes[-1]) if self._classes and is_super_init(node) else ("call", node.func)
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == self.keyword:
                constant = _bool(arg.value)
                if constant is not None:
                    self.found.add((constant, receiver))
                elif _computed(arg.value):
                    self.found.update(((True, receiver), (False, receiver)))  # either, as the value decides

    def visit_DictElement(self, node: cst.DictElement) -> None:
        constant = _bool(node.value)
        if constant is not None and literal_value(node.key) == self.keyword:
            self.found.add((constant, None))


class _SuperInitKeywords(OneScope):
    """The keyword arguments an `__init__` passes to `super().__init__(...)` (not those of nested functions)."""

    def __init__(self, root: cst.FunctionDef) -> None:
        self.scope = root
        self.found: list[cst.Arg] = []

    def visit_Call(self, node: cst.Call) -> None:
        if is_super_init(node):
            self.found.extend(arg for arg in node.args if arg.keyword is not None)


class _GivenOn(OneScope):
    """The callees of the calls of an `__init__` (not `super().__init__`, not in nested functions) that may
    receive one of its keyword arguments: an argument that reads a name spelt as the keyword or, when the
    `__init__` has no parameter of that name (so its `**kwargs` holds it), a `**` argument or the keyword itself."""

    def __init__(self, root: cst.FunctionDef, keyword: str) -> None:
        self.scope = root
        self.keyword = keyword
        params = root.params
        self.spread = keyword not in {param.name.value for param in (
            *params.posonly_params, *params.params, *params.kwonly_params)}
        self.found: list[cst.BaseExpression] = []

    def visit_Call(self, node: cst.Call) -> None:
        if is_super_init(node):
            return
        for arg in node.args:
            spread = self.spread and (arg.star == "**" or (arg.keyword is not None
                                                           and arg.keyword.value == self.keyword))
            if spread or self.keyword in names_in(arg.value):
                self.found.append(node.func)
                return


class _PassedLiterals(RunFact):
    """The bool literals some file of the project passes as `keyword` (not to `super().__init__`, which is part of a
    class's own construction: `init_defaults`), each with the project module class whose constructor receives it
    (None when not known). Only files whose text holds `keyword` next to a bool literal are parsed for it."""

    @classmethod
    def compute(cls, project, owner, keyword: str) -> tuple:
        name = re.escape(keyword)
        hint = re.compile(rf"\b{name}\s*=[^=]|['\"]{name}['\"]\s*:\s*\(*\s*(?:True|False)\b")
        found: dict = {}
        for module in list(project.modules.values()):
            text = module.text
            if text is not None and not hint.search(text):
                continue
            collector = _KeywordLiterals(keyword)
            walk(module.tree, collector)
            for constant, receiver in collector.found:
                if receiver is not None and receiver[0] == "super":
                    continue
                built = None
                if receiver is not None:
                    qualified = module.imports.qualify(receiver[1])
                    target = project.resolve_class(qualified) if qualified else None
                    built = target if target is not None and project.is_module_class(target) else None
                found[(constant, id(built))] = (constant, built)
        return tuple(found.values())


class _GivenOnCache(RunFact):
    """The run's answers of `_gives_on`, by (built class, class, keyword)."""

    @classmethod
    def compute(cls, project, owner) -> dict:
        return {}


def passed_literals(project: "ProjectIndex", cls: "ClassInfo", keyword: str) -> set[bool]:
    """The bool literals the project passes as `keyword` that may configure a module of class `cls`: one given to
    the constructor of another project module class builds that class, not `cls`, unless that constructor may give
    the keyword on to a module of class `cls`."""
    cache = run_fact(project, _GivenOnCache, project)
    return {constant for constant, built in run_fact(project, _PassedLiterals, project, keyword)
            if built is None or built is cls or _gives_on(project, built, cls, keyword, cache)}


def _gives_on(project: "ProjectIndex", built: "ClassInfo", cls: "ClassInfo", keyword: str, cache: dict,
              seen: frozenset = frozenset()) -> bool:
    """Whether building `built` with `keyword` may pass it on to the constructor of a module of class `cls`:
    a call of its `__init__`s (other than `super().__init__`) that takes `**` or names the keyword, whose callee
    is `cls`, a project module class that gives it on in turn, or anything not known (a factory, a variable)."""
    key = (id(built), id(cls), keyword)
    if key in cache:
        return cache[key][1]
    cache[key] = (built, False)  # a cycle gives nothing on; the entry holds `built` so its id stays unique
    result = False
    for current in project.mro(built):
        init = current.methods.get("__init__")
        if init is None or result:
            continue
        collector = _GivenOn(init.node, keyword)
        walk(init.node, collector)
        for func in collector.found:
            qualified = init.module.imports.qualify(func)
            if qualified and qualified.startswith(("torch.", "builtins.")):
                continue
            target = project.resolve_class(qualified) if qualified else None
            if target is None or not project.is_module_class(target) or target is cls or (
                    id(target) not in seen and _gives_on(project, target, cls, keyword, cache, seen | {id(built)})):
                result = True
                break
    cache[key] = (built, result)
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
        collector = _SuperInitKeywords(init.node)
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


class _NamedFlag(RunFact):
    """The default of the flag `self.<name>` over every module class of the project that sets it in `__init__` (the
    value a wrapper copies from the network it wraps, whichever it is); None when they differ or one is undecided."""

    @classmethod
    def compute(cls, project, owner, name: str) -> bool | None:
        found: set = set()
        needle = f".{name}"
        for module in list(project.modules.values()):
            if module.text is not None and needle not in module.text:
                continue
            for info in module.classes.values():
                if name in info.own_attributes and project.is_module_class(info):
                    found.add(_class_flag(project, info, name, depth=1))
        found.discard(_COPIED)  # the other wrappers that copy it
        return found.pop() if len(found) == 1 else None


def _reads_attribute(node: cst.CSTNode, name: str) -> bool:
    found: list[cst.Attribute] = []

    class Find(cst.CSTVisitor):
        def visit_Attribute(self, attribute: cst.Attribute) -> None:
            if attribute.attr.value == name:
                found.append(attribute)

    walk(node, Find())
    return bool(found)


class _ClassFlag(RunFact):
    @classmethod
    def compute(cls, project, owner, name: str) -> bool | None:
        return _class_flag(project, owner, name)


def class_flag(project: "ProjectIndex", cls: "ClassInfo", name: str) -> bool | None:
    """The bool `self.<name>` holds in a module of class `cls` built with its `__init__` defaults, or None when
    that is not decided (the module docstring says when it is)."""
    return run_fact(project, _ClassFlag, cls, name)


def _class_flag(project, cls: "ClassInfo", name: str, depth: int = 0) -> bool | str | None:
    info = project.attributes(cls).get(name)
    if info is None or not info.init_values or not info.assigned_in <= {"__init__"} or info.registered:
        return None
    defaults = init_defaults(project, cls)
    found: set = set()
    for value in info.init_values:
        node = value.node
        if isinstance(node, cst.Name) and node.value in defaults:
            default = _bool(defaults[node.value])
            if default is None or passed_literals(project, cls, node.value) - {default}:
                return None  # the project builds this module with the flag set otherwise too
            found.add(default)
        elif isinstance(node, cst.Attribute) and node.attr.value == name and depth == 0:
            found.add(run_fact(project, _NamedFlag, project, name))
        elif depth and _reads_attribute(node, name):
            found.add(_COPIED)  # another wrapper, deriving it from the object it wraps
        else:
            found.add(_bool(node))
    return found.pop() if len(found) == 1 else None

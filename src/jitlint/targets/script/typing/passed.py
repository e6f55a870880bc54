"""The type of the value a parameter of a module's `__init__` holds, from the code that builds the module.

torch types a module attribute by the value the instance holds (`infer_concrete_type_builder`,
`_jit_try_infer_type`), so `self.dim = dim` with an unannotated `dim` (or one annotated with a Union or an
Optional, which says only what may come) is an int when the module was built with an int. Statically, the builders
are the project's construction sites of the class (calls of it, of a subclass that keeps its `__init__`, a
subclass's `super().__init__(...)`): each passes an expression for the parameter or leaves the default. The
parameter has a type when the default (if any) and every passed value have the same one.

Unknown when a builder is not visible (the class passed around as a value: `partial(Block, ...)`,
`build_model(Block, ...)`, `Block.from_config(...)`; a site passing `*args`/`**kwargs`), when the values differ
between builders (torch then compiles one type per instance), and when a passed value is not typed here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

import libcst as cst

from jitlint.facts import RunFact, run_fact
from jitlint.targets.script.typing.built import construction_sites, site_argument
from jitlint.targets.script.typing.types import Type
from jitlint.walk import walk

if TYPE_CHECKING:
    from jitlint.project import ClassInfo, FunctionInfo, ModuleInfo, ProjectIndex

# Types an expression of a builder: the expression, and the class whose `__init__` it is written in with that
# `__init__` (None for any other place: then only values written out are typed).
SiteValue = Callable[[cst.BaseExpression, "ClassInfo | None", "FunctionInfo | None"], object]

_NOT_ESCAPING_CALLS = frozenset({"isinstance", "issubclass", "super", "type"})


def passed_type(project: "ProjectIndex", init: "FunctionInfo", param: cst.Param, default_value: Callable,
                site_value: SiteValue) -> Type | None:
    """The one type every builder of `init`'s class gives parameter `param` (None: unknown). `default_value` types
    the parameter's default (evaluated where the function is defined). A parameter annotated with a Union or an
    Optional says its builders pass values of several types: its default alone (no construction site in the
    project) does not say which."""
    owner = init.cls
    if owner is None or init.name != "__init__":
        return None
    if run_fact(project, _Hidden, owner):
        return None
    sites = construction_sites(project, owner)
    found: set = set()
    if param.default is not None:
        found.add(default_value(param.default))
    if param.annotation is not None and not sites:
        return None
    name = param.name.value
    for site in sites:
        passed = site_argument(init.node, site, name)
        if passed is False:
            return None
        if passed is None:
            if param.default is None:
                return None
            continue
        outer = None
        if site.init_of is not None:
            method = site.init_of.methods.get("__init__")
            outer = method if method is not None and method.node is site.function else None
        found.add(site_value(passed, site.init_of if outer is not None else None, outer))
        if len(found) > 1:
            return None
    kind = found.pop() if len(found) == 1 else None
    return kind if isinstance(kind, Type) else None


class _Hidden(RunFact):
    """Whether some builders of a class are not calls of it: the class, or a subclass built through its
    `__init__`, is used as a value."""

    @classmethod
    def compute(cls, project: "ProjectIndex", owner: "ClassInfo") -> bool:
        return any(_escapes(project, built) for built in _built_as(project, owner))


def _built_as(project: "ProjectIndex", owner: "ClassInfo") -> list["ClassInfo"]:
    """`owner` and the project classes built through its `__init__` (subclasses that do not define their own)."""
    found = [owner]
    for module in list(project.modules.values()):
        for other in module.classes.values():
            mro = project.mro(other)
            if other is owner or owner not in mro[1:]:
                continue
            if not any("__init__" in middle.methods for middle in mro[:mro.index(owner)]):
                found.append(other)
    return found


def _escapes(project: "ProjectIndex", cls: "ClassInfo") -> bool:
    """Whether the class's name is used as a value anywhere in the project (passed, stored, wrapped in `partial`,
    an attribute of it read): then some of its builders are not calls of it by name."""
    pattern = re.compile(rf"\b{re.escape(cls.name)}\b")
    for module in list(project.modules.values()):
        if module.text is not None and not pattern.search(module.text):
            continue
        if cls.name in run_fact(project, _ValueNames, module):
            return True
    return False


class _ValueNames(RunFact):
    """The names a file uses as values: not called, not a class's name or base, not imported, not in an annotation,
    not what `isinstance`/`issubclass`/`super`/`type` are given (a name or an attribute's last name)."""

    @classmethod
    def compute(cls, project: "ProjectIndex", module: "ModuleInfo") -> frozenset[str]:
        found: set[str] = set()
        skip: set[int] = set()

        class Names(cst.CSTVisitor):
            def visit_Import(self, node: cst.Import) -> bool:
                return False

            def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
                return False

            def visit_Annotation(self, node: cst.Annotation) -> bool:
                return False

            def visit_ClassDef(self, node: cst.ClassDef) -> None:
                skip.add(id(node.name))
                skip.update(id(base.value) for base in node.bases)

            def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
                skip.add(id(node.name))

            def visit_Param(self, node: cst.Param) -> None:
                skip.add(id(node.name))

            def visit_Arg(self, node: cst.Arg) -> None:
                if node.keyword is not None:
                    skip.add(id(node.keyword))

            def visit_Call(self, node: cst.Call) -> None:
                skip.add(id(node.func))
                if isinstance(node.func, cst.Name) and node.func.value in _NOT_ESCAPING_CALLS:
                    skip.update(id(arg.value) for arg in node.args)
                    for arg in node.args:
                        if isinstance(arg.value, cst.Tuple):  # isinstance(x, (A, B))
                            skip.update(id(element.value) for element in arg.value.elements)

            def visit_Attribute(self, node: cst.Attribute) -> None:
                skip.add(id(node.attr))
                if id(node) not in skip:
                    found.add(node.attr.value)

            def visit_Name(self, node: cst.Name) -> None:
                if id(node) not in skip:
                    found.add(node.value)

        walk(module.tree, Names())
        return frozenset(found)

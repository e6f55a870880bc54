"""JIT630-639: modules torch.jit.script rejects as a whole, before it compiles (or names) any line of them.

`torch.jit.script(module)` first calls `module.__prepare_scriptable__()` (on the module and, recursively, on its
submodules) and scripts what it returns; a class whose `__prepare_scriptable__` always raises cannot be scripted at
all, and torch names no line of the user's code (the error is the one the method raises).
"""

from __future__ import annotations

import re

import libcst as cst

from jitlint.names import first_param_name
from jitlint.project import ClassInfo
from jitlint.rules.base import RuleContext
from jitlint.targets.script.rules import ScriptRule

# Bases a module class may have that cannot define `__prepare_scriptable__` or the attributes it reads.
_INERT_BASE_PREFIXES = ("torch.", "typing.", "typing_extensions.", "abc.")
_INERT_BASES = frozenset({"builtins.object", "object"})
_UNKNOWN = object()  # a value that cannot be folded


def _closed_mro(ctx: RuleContext, cls: ClassInfo) -> list[ClassInfo] | None:
    """The project classes in `cls`'s MRO, when every base of every one of them is a project class or an inert
    library base (torch's, typing's); None when a base is unknown (it could define the method or the attribute)."""
    order = ctx.project.mro(cls)
    for current in order:
        for base in current.base_names:
            if base is None:
                return None
            if base in _INERT_BASES or base.startswith(_INERT_BASE_PREFIXES):
                continue
            if ctx.project.resolve_class(base) is None:
                return None
    return order


def _literal(node: cst.BaseExpression | None):
    """The Python value of a literal the class body assigns, or _UNKNOWN."""
    if node is None:
        return _UNKNOWN
    if isinstance(node, cst.Name) and node.value in ("None", "True", "False"):
        return {"None": None, "True": True, "False": False}[node.value]
    if isinstance(node, cst.Integer):
        return int(node.value, 0) if not node.value.startswith("0") or node.value == "0" else _UNKNOWN
    if isinstance(node, cst.SimpleString):
        return node.evaluated_value
    return _UNKNOWN


class _Folder:
    """Folds the conditions of a `__prepare_scriptable__` on one concrete class: `self.NAME` reads a class
    attribute that no code of the class hierarchy's files assigns again (`self.NAME = ...`, `Cls.NAME = ...`,
    `setattr`), so torch's call sees the class body's literal."""

    def __init__(self, ctx: RuleContext, cls: ClassInfo, mro: list[ClassInfo], self_name: str) -> None:
        self.ctx = ctx
        self.cls = cls
        self.mro = mro
        self.self_name = self_name
        self.attributes = ctx.project.attributes(cls)

    def _attribute(self, name: str):
        info = self.attributes.get(name)
        if info is None or info.assigned_in or info.class_value is None:
            return _UNKNOWN
        if any(current.dynamic_attributes for current in self.mro):
            return _UNKNOWN
        rebinding = re.compile(rf"\.{re.escape(name)}\s*(?:=(?!=)|[-+*/|&]=)|setattr\(")
        for current in self.mro:
            text = current.module.text if current.module.text is not None else current.module.tree.code
            if rebinding.search(text):
                return _UNKNOWN
        return _literal(info.class_value)

    def value(self, node: cst.BaseExpression):
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) \
                and node.value.value == self.self_name:
            return self._attribute(node.attr.value)
        return _literal(node)

    def truth(self, node: cst.BaseExpression) -> bool | None:
        """True/False when the condition's value is known, None otherwise."""
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            inner = self.truth(node.expression)
            return None if inner is None else not inner
        if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
            target = node.comparisons[0]
            if isinstance(target.operator, (cst.Is, cst.IsNot)) and isinstance(target.comparator, cst.Name) \
                    and target.comparator.value == "None":
                left = self.value(node.left)
                if left is _UNKNOWN:
                    return None
                return (left is None) == isinstance(target.operator, cst.Is)
            return None
        value = self.value(node)
        return None if value is _UNKNOWN else bool(value)


def _always_raises(statements, folder: _Folder) -> bool:
    """Does running these statements in order always end in a `raise` (no return before it)?"""
    for statement in statements:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Raise):
                    return True
                if isinstance(small, (cst.Return, cst.Global, cst.Nonlocal)):
                    return False
            continue
        if isinstance(statement, cst.If):
            verdict = folder.truth(statement.test)
            if verdict is None:
                return False
            if verdict:
                branch = statement.body.body
            elif isinstance(statement.orelse, cst.Else):
                branch = statement.orelse.body.body
            elif isinstance(statement.orelse, cst.If):
                branch = [statement.orelse]
            else:
                continue
            if _always_raises(branch, folder):
                return True
            if _may_leave(branch):
                return False
            continue
        return False  # a loop, a try, a with: not followed
    return False


def _may_leave(statements) -> bool:
    """Does a block contain a return (or anything that could end the method without raising)?"""

    class Find(cst.CSTVisitor):
        found = False

        def visit_Return(self, node: cst.Return) -> None:
            self.found = True

        def visit_Yield(self, node: cst.Yield) -> None:
            self.found = True

    finder = Find()
    for statement in statements:
        statement.visit(finder)
    return finder.found


class PrepareScriptableAlwaysRaises(ScriptRule):
    code = "JIT630"
    name = "prepare-scriptable-always-raises"
    severity = "error"
    summary = "a module class whose `__prepare_scriptable__` (own or inherited) always raises: it cannot be scripted"
    message = "`__prepare_scriptable__` always raises for this class, so torch.jit.script cannot script it"
    scope = "anywhere"
    outside_handlers = frozenset({"ClassDef"})
    whole_class = True

    def visit_ClassDef(self, node: cst.ClassDef, ctx: RuleContext) -> None:
        cls = ctx.module_class(node)
        if cls is None:
            return
        method = ctx.project.find_method(cls, "__prepare_scriptable__")
        if method is None or method.decorators or method.is_property:
            return
        mro = _closed_mro(ctx, cls)
        self_name = first_param_name(method.node)
        if mro is None or self_name is None:
            return
        body = method.node.body
        if not isinstance(body, cst.IndentedBlock):
            return
        if not _always_raises(body.body, _Folder(ctx, cls, mro, self_name)):
            return
        owner = method.cls.name if method.cls is not None else "a base class"
        where = "its own" if method.cls is cls else f"the one it inherits from `{owner}`"
        ctx.report(
            node.name,
            f"`{cls.name}` cannot be scripted: `torch.jit.script` first calls `__prepare_scriptable__()`, and "
            f"{where} always raises for this class (torch names no line); script a module whose "
            f"`__prepare_scriptable__` returns a scriptable module, or do not script this class",
        )

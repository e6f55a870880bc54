"""JIT3xx: indexing, slicing and reversing module containers (ModuleList, Sequential, ModuleDict, ...).

TorchScript unrolls loops over module containers and resolves each index at compile time, so an index must be a
literal (or a `Final`/`__constants__` attribute, which torch inlines).
"""

from __future__ import annotations

import libcst as cst

from jitlint.project import INDEXED_BY_INT, INDEXED_BY_STR
from jitlint.rules._expr import is_int_literal, is_str_literal
from jitlint.rules.base import Rule, RuleContext


def _container(node: cst.BaseExpression, ctx: RuleContext, kinds: frozenset[str]) -> tuple[str, str] | None:
    """(attribute name, kind) when `node` is `self.<attr>` holding only containers of `kinds`."""
    found = ctx.self_attribute(node)
    if found is None:
        return None
    name, info = found
    if not info.kinds or not info.kinds <= kinds:
        return None
    return name, sorted(info.kinds)[0]


def _single_index(node: cst.Subscript) -> cst.BaseExpression | None:
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    return node.slice[0].slice.value


def _is_constant(index: cst.BaseExpression, ctx: RuleContext) -> bool:
    """A `Final` / `__constants__` attribute (inlined by torch), or a module-level name, which is a different
    error (a global Python value) that another rule reports."""
    found = ctx.self_attribute(index)
    if found is not None and found[1].constant:
        return True
    if isinstance(index, cst.Name):
        imports = ctx.module.imports
        return index.value in imports.local_definitions or index.value in imports.aliases
    return False


def _is_load(ctx: RuleContext) -> bool:
    parent = ctx.parent
    return not isinstance(parent, (cst.AssignTarget, cst.Del)) and not (
        isinstance(parent, (cst.AugAssign, cst.AnnAssign)) and parent.target is ctx.ancestors[-1]
    )


class _LiteralIndexRule(Rule):
    """A container torch indexes at compile time: only a literal (or an inlined constant) will do."""

    kinds: frozenset[str]
    literal_kind: str
    hint: str

    @staticmethod
    def is_literal(index: cst.BaseExpression) -> bool:
        raise NotImplementedError

    def visit_Subscript(self, node: cst.Subscript, ctx: RuleContext) -> None:
        container = _container(node.value, ctx, self.kinds)
        index = _single_index(node)
        if container is None or index is None or self.is_literal(index) or _is_constant(index, ctx):
            return
        if not _is_load(ctx):
            return
        name, kind = container
        ctx.report(
            node,
            f"`self.{name}` is an nn.{kind}; TorchScript only indexes it with {self.literal_kind}. "
            + self.hint.format(name=name),
        )


class ModuleListIndexVariable(_LiteralIndexRule):
    code = "JIT301"
    name = "modulelist-index-variable"
    severity = "error"
    message = "module container indexed with a non-literal"
    kinds = INDEXED_BY_INT
    literal_kind = "an integer literal"
    hint = "Iterate instead: `for layer in self.{name}:` (or `enumerate(self.{name})`)"
    is_literal = staticmethod(is_int_literal)


class ModuleDictIndexVariable(_LiteralIndexRule):
    code = "JIT302"
    name = "moduledict-index-variable"
    severity = "error"
    message = "ModuleDict indexed with a non-literal"
    kinds = INDEXED_BY_STR
    literal_kind = "a string literal"
    hint = "Iterate with `for key, value in self.{name}.items():` and compare keys"
    is_literal = staticmethod(is_str_literal)


class ModuleListReversed(Rule):
    code = "JIT303"
    name = "modulelist-reversed"
    severity = "error"
    message = "`reversed()` of a module container"

    def visit_Call(self, node: cst.Call, ctx: RuleContext) -> None:
        if ctx.qualify(node.func) != "builtins.reversed" or len(node.args) != 1:
            return
        argument = node.args[0].value
        container = _container(argument, ctx, frozenset({"ModuleList", "Sequential"}))
        if container is None and isinstance(argument, cst.Call) and isinstance(argument.func, cst.Attribute):
            if argument.func.attr.value in ("values", "items"):
                container = _container(argument.func.value, ctx, frozenset({"ModuleDict"}))
        if container is None:
            return
        name, kind = container
        ctx.report(
            node,
            f"TorchScript cannot `reversed()` an nn.{kind} (`self.{name}`); build a reversed container in "
            f"`__init__`, e.g. `nn.ModuleList(list(self.{name})[::-1])`",
        )


class ModuleListSlice(Rule):
    code = "JIT304"
    name = "modulelist-slice"
    severity = "error"
    message = "slice of a module container called or iterated"

    def visit_Subscript(self, node: cst.Subscript, ctx: RuleContext) -> None:
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Slice):
            return
        container = _container(node.value, ctx, frozenset({"ModuleList", "Sequential"}))
        if container is None:
            return
        # The slice itself compiles (`len(self.layers[1:])` scripts); calling its elements does not.
        parent = ctx.parent
        used = (
            (isinstance(parent, cst.For) and parent.iter is node)
            or (isinstance(parent, cst.CompFor) and parent.iter is node)
            or (isinstance(parent, cst.Call) and parent.func is node)
        )
        if not used:
            return
        name, kind = container
        ctx.report(
            node,
            f"TorchScript cannot call the modules of a slice of an nn.{kind} (`self.{name}[...]`); iterate "
            f"`enumerate(self.{name})` and skip by index, or build the sub-container in `__init__`",
        )

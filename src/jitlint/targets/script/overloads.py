"""What torch checks when it compiles an implementation of `@torch.jit._overload` declarations against one of
them (`torch/jit/_script.py`: `_check_overload_defaults`, `_check_directly_compile_overloaded`; the C++
`ScriptTypeParser` for the parameters a declaration leaves out), as typed problems the rule of JIT214 reports (it
writes their messages).

Each check names the node torch points at, or the declaration when torch names no line. Defaults are compared
only when both are literals (`1`, `-2.5`, `"a"`, `None`, `True`): any other value stays silent.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

import libcst as cst

_MISSING = object()


@dataclass(frozen=True)
class DefaultDiffers:
    """A declaration gives parameter `name` a default the implementation does not have, or another literal one."""

    node: cst.CSTNode  # the declaration's name
    name: str


@dataclass(frozen=True)
class UndeclaredUnannotated:
    """Implementation parameter `name` is left out of a declaration and has no annotation of its own."""

    node: cst.CSTNode  # the implementation's name
    name: str


def _params(function: cst.FunctionDef) -> list[cst.Param]:
    params = function.params
    return [*params.posonly_params, *params.params, *params.kwonly_params]


def _literal(node: cst.BaseExpression | None, module: cst.Module) -> object:
    """The value of a literal default, `_MISSING` for no default, None when it is not a literal."""
    if node is None:
        return _MISSING
    try:
        return ("value", ast.literal_eval(module.code_for_node(node)))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def default_mismatches(
    declaration: cst.FunctionDef, implementation: cst.FunctionDef, module: cst.Module
) -> Iterator[DefaultDiffers]:
    """A default on a declaration that the implementation does not have, or has with another literal value."""
    implementation_defaults = {param.name.value: param.default for param in _params(implementation)}
    for param in _params(declaration):
        if param.default is None:
            continue
        name = param.name.value
        theirs = _literal(implementation_defaults.get(name), module)
        ours = _literal(param.default, module)
        if theirs is _MISSING or (ours is not None and theirs is not None and ours != theirs):
            yield DefaultDiffers(declaration.name, name)


def undeclared_unannotated(
    declaration: cst.FunctionDef, implementation: cst.FunctionDef, has_signature_comment: bool
) -> Iterator[UndeclaredUnannotated]:
    """Implementation parameters a declaration leaves out, without an annotation of their own."""
    if has_signature_comment:
        return
    declared = {param.name.value for param in _params(declaration)}
    for index, param in enumerate(_params(implementation)):
        if param.name.value in declared or param.annotation is not None:
            continue
        if index == 0 and param.name.value in ("self", "cls"):
            continue
        yield UndeclaredUnannotated(implementation.name, param.name.value)
        return  # torch stops at the first



def is_overload_implementation(function: cst.FunctionDef, tree: cst.Module) -> bool:
    """Whether `function` implements `@torch.jit._overload` declarations (an earlier function or method of the same
    name in the same body): TorchScript compiles it once per declared signature, not with its own."""
    return id(function) in _overload_implementations(tree)


@dataclass(frozen=True)
class OverloadGroup:
    """`@torch.jit._overload` (or `_overload_method`) declarations of one name in one body, and the function
    defined after them that implements them (None when there is none)."""

    declarations: tuple[cst.FunctionDef, ...]
    implementation: cst.FunctionDef | None


def overload_group(function: cst.FunctionDef, tree: cst.Module) -> OverloadGroup | None:
    """The overload group `function` declares or implements, if any."""
    return _overload_groups(tree).get(id(function))


def _overload_implementations(tree: cst.Module) -> frozenset[int]:
    return frozenset(id(group.implementation) for group in _overload_groups(tree).values() if group.implementation)


@lru_cache(maxsize=64)
def _overload_groups(tree: cst.Module) -> dict[int, OverloadGroup]:
    groups: dict[int, OverloadGroup] = {}
    bodies = [tree.body]
    bodies.extend(statement.body.body for statement in tree.body if isinstance(statement, cst.ClassDef)
                  and isinstance(statement.body, cst.IndentedBlock))
    for body in bodies:
        declared: dict[str, list[cst.FunctionDef]] = {}
        for statement in body:
            if not isinstance(statement, cst.FunctionDef):
                continue
            names = {_dotted(decorator.decorator) for decorator in statement.decorators}
            name = statement.name.value
            if any(n is not None and n.rsplit(".", 1)[-1] in ("_overload", "_overload_method") for n in names):
                declared.setdefault(name, []).append(statement)
            elif name in declared:
                group = OverloadGroup(tuple(declared.pop(name)), statement)
                groups.update((id(member), group) for member in (*group.declarations, statement))
        for declarations in declared.values():
            group = OverloadGroup(tuple(declarations), None)
            groups.update((id(member), group) for member in declarations)
    return groups


def _dotted(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr.value}" if head else None
    return None

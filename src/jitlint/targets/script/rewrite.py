"""Rewriting helpers the fixes of several script rules share: pure functions over LibCST nodes and the rule
context, with no rule's message or fix of its own (each rule's fix lives in its rule module)."""

from __future__ import annotations

import re

import libcst as cst

from jitlint.facts.syntax import names_in, names_in_targets
from jitlint.rules.base import PendingEdit, RuleContext
from jitlint.walk import walk


def enclosing_statement(ctx: RuleContext) -> cst.CSTNode | None:
    """The smallest statement holding the node being visited."""
    return ctx.enclosing(cst.SimpleStatementLine, cst.BaseCompoundStatement)


def compiled_function(ctx: RuleContext) -> cst.FunctionDef | None:
    return ctx.function.info.node if ctx.function is not None else None


def count_name(node: cst.CSTNode, name: str) -> int:
    count = 0

    class Count(cst.CSTVisitor):
        def visit_Name(self, found: cst.Name) -> None:
            nonlocal count
            count += found.value == name

    walk(node, Count())
    return count


def builtin_generics(annotation: str) -> str:
    """`List[int]` -> `list[int]`, `Optional[T]` -> `T | None` (PEP 585/604: no typing import needed; torch 2.13
    reads both)."""
    for old, new in (("List[", "list["), ("Dict[", "dict["), ("Tuple[", "tuple[")):
        annotation = annotation.replace(old, new)
    match = re.fullmatch(r"Optional\[(.*)\]", annotation)
    if match:
        return f"{builtin_generics(match.group(1))} | None"
    # an Optional inside (`list[Optional[T]]`): `list[T | None]`, when it is the one type argument of its generic
    inner = re.fullmatch(r"(list|tuple|dict)\[(.*)\]", annotation)
    if inner and inner.group(2).startswith("Optional[") and _balanced(inner.group(2)):
        return f"{inner.group(1)}[{builtin_generics(inner.group(2))}]"
    return annotation


def _balanced(text: str) -> bool:
    """Whether `text` is one bracketed type (`Optional[List[int]]`), not several separated by commas."""
    depth = 0
    for index, char in enumerate(text):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if depth == 0 and char == "]":
            return index == len(text) - 1
    return False


def is_pure_chain(node: cst.BaseExpression) -> bool:
    """`x`, `x.shape`, `self.a.b`: reading it twice gives the same value (no call, no subscript)."""
    while isinstance(node, cst.Attribute):
        node = node.value
    return isinstance(node, cst.Name)


def class_of(ctx: RuleContext) -> cst.ClassDef | None:
    return ctx.enclosing(cst.ClassDef)


def stored_names(node: cst.CSTNode) -> set[str]:
    return names_in_targets(node, (cst.AssignTarget,), into_functions=False)


def module_level_names(tree: cst.Module) -> set[str]:
    names: set[str] = set()
    for statement in tree.body:
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            names.add(statement.name.value)
        elif isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, (cst.Import, cst.ImportFrom)) and not isinstance(small.names, cst.ImportStar):
                    for alias in small.names:
                        bound = alias.asname.name if alias.asname else alias.name
                        names.add(ctx_code_name(bound).split(".")[0])
                elif isinstance(small, cst.Assign):
                    for target in small.targets:
                        names |= names_in(target.target)
                elif isinstance(small, cst.AnnAssign):
                    names |= names_in(small.target)
        else:
            names |= stored_names(statement)
    return names


def ctx_code_name(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{ctx_code_name(node.value)}.{node.attr.value}"
    return ""


def loop_jumps(loop: cst.For | cst.While, continues: bool = True) -> bool:
    """Whether the loop's own body has a `break` (or, with `continues`, a `continue`): those of nested loops and
    functions do not count."""
    found = False

    class Jumps(cst.CSTVisitor):
        def visit_Break(self, node: cst.Break) -> None:
            nonlocal found
            found = True

        def visit_Continue(self, node: cst.Continue) -> None:
            nonlocal found
            found = found or continues

        def visit_For(self, node: cst.For) -> bool:
            return False

        def visit_While(self, node: cst.While) -> bool:
            return False

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

    walk(loop.body, Jumps())
    return found


def class_body_indent(cls: cst.ClassDef, ctx: RuleContext) -> str | None:
    """The indentation of the statements of `cls`'s body (`cls` an ancestor of the visited node)."""
    if cls not in ctx.ancestors or not isinstance(cls.body, cst.IndentedBlock):
        return None
    depth = ""
    for ancestor in ctx.ancestors[: ctx.ancestors.index(cls)]:
        if isinstance(ancestor, cst.IndentedBlock):
            depth += ancestor.indent if ancestor.indent is not None else ctx.module.tree.default_indent
    indent = cls.body.indent
    return depth + (indent if indent is not None else ctx.module.tree.default_indent)


def evidently_bool(value: cst.BaseExpression, init: cst.FunctionDef) -> bool:
    if isinstance(value, cst.Comparison):
        return True
    if isinstance(value, cst.UnaryOperation):
        return isinstance(value.operator, cst.Not)
    if isinstance(value, cst.BooleanOperation):
        return evidently_bool(value.left, init) and evidently_bool(value.right, init)
    if isinstance(value, cst.Name):
        if value.value in ("True", "False"):
            return True
        for param in init.params.params + init.params.kwonly_params:
            if param.name.value == value.value:
                annotation = param.annotation.annotation if param.annotation is not None else None
                if isinstance(annotation, cst.Name) and annotation.value == "bool":
                    return True
                return (annotation is None and isinstance(param.default, cst.Name)
                        and param.default.value in ("True", "False"))
        return False
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
        return value.func.value in ("isinstance", "hasattr", "callable", "bool")
    return False


def final_spelling(ctx: RuleContext) -> tuple[str, PendingEdit | None] | None:
    """How this file can spell `Final`, and the import edit it needs, if any."""
    aliases = ctx.module.imports.aliases
    if aliases.get("Final") in ("typing.Final", "torch.jit.Final", "typing_extensions.Final"):
        return "Final", None
    if ctx.torch_name is not None:
        return f"{ctx.torch_name}.jit.Final", None
    if aliases.get("typing") == "typing":
        return "typing.Final", None
    tree = ctx.module.tree
    if "Final" in module_level_names(tree) or "Final" in aliases:
        return None
    first = next((s for s in tree.body if isinstance(s, cst.SimpleStatementLine)
                  and isinstance(s.body[0], (cst.Import, cst.ImportFrom))
                  and not (isinstance(s.body[0], cst.ImportFrom) and isinstance(s.body[0].module, cst.Name)
                           and s.body[0].module.value == "__future__")), None)
    if first is None:
        return None
    return "Final", PendingEdit(first, "from typing import Final\n", insert_before=True)


def class_level_names(cls: cst.ClassDef) -> set[str]:
    names: set[str] = set()
    if not isinstance(cls.body, cst.IndentedBlock):
        return names
    for statement in cls.body.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    names.add(small.target.value)
                elif isinstance(small, cst.Assign):
                    for target in small.targets:
                        if isinstance(target.target, cst.Name):
                            names.add(target.target.value)
        elif isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            names.add(statement.name.value)
    return names


def final_flag(flag: str, cls: cst.ClassDef, ctx: RuleContext) -> tuple[str, list[PendingEdit]] | None:
    """The edits declaring `flag: torch.jit.Final[bool]` first in the class body (after its docstring), so that
    torch reads the flag as a constant of each instance and drops the branches it guards when it is false, with the
    spelling of `Final` they use. Only when every value `__init__` gives the flag is evidently a bool. Safe: at run
    time the annotation changes nothing (`Final` is not enforced; `from typing import Final` is added when the file
    has no spelling of it)."""
    if not isinstance(cls.body, cst.IndentedBlock):
        return None
    init = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)
    if init is None or not init.params.params or flag in class_level_names(cls):
        return None
    self_name = init.params.params[0].name.value
    values: list[cst.BaseExpression] = []

    class Values(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            for target in node.targets:
                t = target.target
                if (isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == self_name
                        and t.attr.value == flag):
                    values.append(node.value)

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            t = node.target
            if (isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == self_name
                    and t.attr.value == flag):
                values.append(node.value)  # type: ignore[arg-type]

    walk(init, Values())
    if not values or not all(v is not None and evidently_bool(v, init) for v in values):
        return None
    spelling = final_spelling(ctx)
    if spelling is None:
        return None
    final, import_edit = spelling
    body = list(cls.body.body)
    first = body[0]
    if (isinstance(first, cst.SimpleStatementLine) and isinstance(first.body[0], cst.Expr)
            and isinstance(first.body[0].value, (cst.SimpleString, cst.ConcatenatedString))):
        if len(body) < 2:
            return None
        first = body[1]
    anchor = first.decorators[0] if isinstance(first, (cst.FunctionDef, cst.ClassDef)) and first.decorators else first
    indent = class_body_indent(cls, ctx)
    if indent is None:
        return None
    annotation = (isinstance(first, cst.SimpleStatementLine) and isinstance(first.body[0], cst.AnnAssign))
    edits = [PendingEdit(anchor, f"{flag}: {final}[bool]\n{'' if annotation else chr(10)}{indent}", insert_before=True)]
    if import_edit is not None:
        edits.insert(0, import_edit)
    return final, edits


def annotate_param(param: cst.Param, annotation: str, ctx: RuleContext) -> list[PendingEdit]:
    """Edits turning `name=default` into `name: annotation = default` (a Param's range is its name only; the `=`
    is a shared layout node with no position of its own, so the edit runs from the name to the default)."""
    if param.default is not None:
        return [PendingEdit(param.name, f"{param.name.value}: {annotation} = ", until=param.default)]
    return [PendingEdit(param.name, f"{param.name.value}: {annotation}")]


def inner_indent(owner: cst.CSTNode, ctx: RuleContext) -> str:
    """The indentation of the statements of `owner`'s indented body (`owner` is on the path being visited)."""
    body = owner.body
    return ctx.indent_of(owner) + (body.indent if body.indent is not None else ctx.module.tree.default_indent)


def fresh_name(function: cst.FunctionDef, *candidates: str) -> str:
    """The first of `candidates` (then `candidate_2`, ...) that the function does not use."""
    used = names_in(function)
    for suffix in ("", "_2", "_3", "_4"):
        for candidate in candidates:
            if candidate + suffix not in used:
                return candidate + suffix
    return candidates[0] + "_jitlint"

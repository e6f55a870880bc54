"""What the typer reads of a class's source: its decorators as written, whether its bases are all in the project,
an Enum's members."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from jitlint.project import ClassInfo, ProjectIndex


def decorator_texts(node: cst.ClassDef | cst.FunctionDef) -> list[str]:
    return [cst.Module([]).code_for_node(decorator.decorator) for decorator in node.decorators]


def plain_bases(cls: "ClassInfo", project: "ProjectIndex", enum: bool = False) -> bool:
    """The class's bases are all known: project classes (themselves plain), `object`, or (`enum`) an Enum base: what
    the class holds is all in the project."""
    for name in cls.base_names:
        if name is None:
            return False
        if name in ("builtins.object", "object") or (enum and name.startswith("enum.")):
            continue
        found = project.resolve_class(name)
        if found is None or found is cls or not plain_bases(found, project, enum):
            return False
    return True


def enum_members(cls: "ClassInfo") -> set[str]:
    """The names an Enum's body assigns (its members)."""
    found: set[str] = set()
    body = cls.node.body.body if isinstance(cls.node.body, cst.IndentedBlock) else ()
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                targets = small.targets if isinstance(small, cst.Assign) else (
                    [small] if isinstance(small, cst.AnnAssign) else [])
                for target in targets:
                    if isinstance(target.target, cst.Name):
                        found.add(target.target.value)
        elif isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            found.add(statement.name.value)
    return found

"""Import aliases and qualified names, per file.

LibCST's QualifiedNameProvider resolves every name in a file through full scope analysis; on torch's own `nn`
package that costs several times the parse. The rules only need to know what a handful of dotted names refer to
(`nn.ModuleList`, `torch.jit.is_scripting`, `np.abs`, a base class), so a table of the file's imports and
top-level definitions answers them.
"""

from __future__ import annotations

import builtins
from pathlib import Path
from typing import Callable

import libcst as cst

from jitlint.paths import has_init, is_project_root, module_name_of, resolved  # noqa: F401  (re-exported)

BUILTIN_NAMES = frozenset(dir(builtins))
# Decorators that return the function they are given, marking it at most: under another decorator (`@property`
# over `@abc.abstractmethod`) the function is still the one written, and an nn.Module is no ABC, so nothing
# forbids building one with abstract methods.
IDENTITY_DECORATORS = frozenset({
    "abc.abstractmethod", "typing.final", "typing_extensions.final", "typing.override", "typing_extensions.override",
    "typing.no_type_check",
})

# Public names that torch re-exports from private modules; qualified names are normalised to the public one so
# rules compare against a single spelling.
_TORCH_PREFIX_ALIASES = (
    ("torch.nn.modules.", "torch.nn."),
    ("torch.jit._script.", "torch.jit."),
    ("torch.jit._state.", "torch.jit."),
    ("torch._jit_internal.", "torch.jit."),
)


def dotted_name(node: cst.BaseExpression) -> str | None:
    """`a.b.c` for a Name/Attribute chain, else None."""
    parts: list[str] = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if isinstance(node, cst.Name):
        parts.append(node.value)
        return ".".join(reversed(parts))
    return None


def normalize(qualified: str) -> str:
    for private, public in _TORCH_PREFIX_ALIASES:
        if qualified.startswith(private):
            rest = qualified[len(private):]
            if private == "torch.nn.modules.":
                # torch.nn.modules.container.ModuleList -> torch.nn.ModuleList
                rest = rest.rsplit(".", 1)[-1] if "." in rest else rest
            return public + rest
    return qualified


def first_param(function: cst.FunctionDef) -> cst.Param | None:
    """The first parameter (`self` of a method), positional-only or not."""
    params = function.params.posonly_params or function.params.params
    return params[0] if params else None


def first_param_name(function: cst.FunctionDef) -> str | None:
    param = first_param(function)
    return param.name.value if param is not None else None


def module_name_for(path: Path) -> tuple[str, Path]:
    """The dotted module name of a file and the directory that import path is relative to (`paths.module_name_of`:
    packages, namespace packages inside them)."""
    name, root = module_name_of(str(resolved(path)), has_init, is_project_root)
    return name, Path(root)


class ImportTable:
    """What each top-level name of one file refers to, as a dotted qualified name."""

    def __init__(self, module_name: str, is_package: bool = False) -> None:
        self.module_name = module_name
        self.is_package = is_package
        self.aliases: dict[str, str] = {}
        self.local_definitions: set[str] = set()
        # `from m import *` at the top level: (m's qualified name, the statement's position), in the file's order;
        # what they bind is added by `bind_star` (the names another module exports are the project's to know).
        self.stars: list[tuple[str, int]] = []
        # The literal `__all__` of the file (None: no literal one; `star_exports`).
        self.all_names: tuple[str, ...] | None = None
        self._all_unknown = False
        self._bound_at: dict[str, int] = {}  # name -> position of the last statement that binds it
        self._position = 0

    @classmethod
    def from_module(cls, module: cst.Module, module_name: str, is_package: bool = False) -> "ImportTable":
        table = cls(module_name, is_package)
        for statement in top_level_statements(module.body):
            table._add_statement(statement)
        return table

    def _add_statement(self, statement: cst.CSTNode) -> None:
        self._position += 1
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            self.local_definitions.add(statement.name.value)
            self._bound_at[statement.name.value] = self._position
            return
        if not isinstance(statement, cst.SimpleStatementLine):
            return
        for small in statement.body:
            if isinstance(small, cst.Import):
                for alias in small.names:
                    full = dotted_name(alias.name)
                    if full is None:
                        continue
                    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                        self.aliases[alias.asname.name.value] = full
                        self._bound_at[alias.asname.name.value] = self._position
                    else:
                        # `import torch.nn` binds `torch`
                        top = full.split(".", 1)[0]
                        self.aliases[top] = top
                        self._bound_at[top] = self._position
            elif isinstance(small, cst.ImportFrom):
                base = self._resolve_from(small)
                if base is None:
                    continue
                if isinstance(small.names, cst.ImportStar):
                    if base:
                        self.stars.append((base, self._position))
                    continue
                for alias in small.names:
                    name = dotted_name(alias.name)
                    if name is None:
                        continue
                    bound = name
                    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                        bound = alias.asname.name.value
                    self.aliases[bound] = f"{base}.{name}" if base else name
                    self._bound_at[bound] = self._position
            elif isinstance(small, (cst.Assign, cst.AnnAssign)):
                targets = small.targets if isinstance(small, cst.Assign) else [small]
                for target in targets:
                    node = target.target
                    if isinstance(node, cst.Name):
                        self.local_definitions.add(node.value)
                        self.aliases.pop(node.value, None)
                        self._bound_at[node.value] = self._position
                        if node.value == "__all__":
                            self.note_all(literal_strings(small.value))
            elif isinstance(small, cst.AugAssign) and isinstance(small.target, cst.Name) \
                    and small.target.value == "__all__":
                self.note_all(None)

    def note_all(self, names: tuple[str, ...] | None) -> None:
        """A binding of `__all__`: its strings when it is a literal list or tuple of them, else None (unknown)."""
        if names is None or self.all_names is not None:
            # computed, extended or bound twice: what a star import binds is not known
            self._all_unknown = True
            self.all_names = None
        elif not self._all_unknown:
            self.all_names = names

    def star_exports(self) -> dict[str, str]:
        """What `from <this module> import *` binds, each name to the qualified name it refers to: exactly the
        literal `__all__`, else every module-level name not starting with `_` (the names `bind_star` added
        included). A non-literal `__all__` exports nothing known."""
        if self._all_unknown:
            return {}
        if self.all_names is not None:
            names = self.all_names
        else:
            names = [name for name in (*self.aliases, *self.local_definitions) if not name.startswith("_")]
        exports = {}
        for name in names:
            if name in self.aliases:
                exports[name] = self.aliases[name]
            else:  # a definition, or (in `__all__`) a submodule of a package
                exports[name] = f"{self.module_name}.{name}"
        return exports

    def bind_star(self, position: int, exports: dict[str, str]) -> None:
        """Bind what the star import at `position` brings in (`star_exports` of its module), except the names a
        later statement of the file binds again."""
        for name, target in exports.items():
            if self._bound_at.get(name, -1) < position:
                self.aliases[name] = target
                self.local_definitions.discard(name)

    def _resolve_from(self, node: cst.ImportFrom) -> str | None:
        module = dotted_name(node.module) if node.module is not None else ""
        if module is None:
            return None
        return self.import_base(module, len(node.relative))

    def import_base(self, module: str, level: int) -> str | None:
        """The module `from <level dots><module> import ...` written in this module imports from (None: above the
        top package), whichever parser read the statement."""
        if level == 0:
            return module
        package_parts = self.module_name.split(".")
        if not self.is_package:
            package_parts = package_parts[:-1]
        if level - 1 > len(package_parts):
            return None
        base_parts = package_parts[: len(package_parts) - (level - 1)]
        if module:
            base_parts.append(module)
        return ".".join(base_parts)

    def qualify(self, node: cst.BaseExpression) -> str | None:
        """The qualified name an expression like `nn.ModuleList` or `is_scripting` refers to, if known."""
        name = dotted_name(node)
        return None if name is None else self.qualify_dotted(name)

    def qualify_dotted(self, name: str) -> str | None:
        """The qualified name a dotted name written in this module (`nn.ModuleList`) refers to, if known: what
        `qualify` answers for the expression, whichever parser read it."""
        head, _, rest = name.partition(".")
        if head in self.aliases:
            full = self.aliases[head] + ("." + rest if rest else "")
        elif head in self.local_definitions:
            full = f"{self.module_name}.{name}"
        elif head in BUILTIN_NAMES:
            full = f"builtins.{name}"
        else:
            return None
        return normalize(full)


def bind_stars(imports: ImportTable, table_of: "Callable[[str], ImportTable | None]") -> None:
    """Bind the names a file's `from m import *` statements bring in, as Python does: what each module `m` of the
    project (`table_of`: its import table, None outside the project or while it is being loaded, in an import
    cycle) exports, its own star imports included when its table was built the same way."""
    for base, position in imports.stars:
        source = table_of(base)
        if source is not None:
            imports.bind_star(position, source.star_exports())


def star_closure(imports: ImportTable, table_of: "Callable[[str], ImportTable | None]") -> list[str]:
    """The modules whose exported names a file's star imports read, transitively, each once."""
    seen: list[str] = []
    todo = [imports]
    while todo:
        for base, _position in todo.pop().stars:
            if base not in seen:
                seen.append(base)
                found = table_of(base)
                if found is not None:
                    todo.append(found)
    return seen


def literal_strings(node: cst.BaseExpression) -> tuple[str, ...] | None:
    """The strings of a list or tuple of plain string literals (`__all__ = ["a", "b"]`), else None."""
    if not isinstance(node, (cst.List, cst.Tuple)):
        return None
    names = []
    for element in node.elements:
        if not isinstance(element, cst.Element) or not isinstance(element.value, cst.SimpleString):
            return None
        value = element.value.evaluated_value
        if not isinstance(value, str):
            return None
        names.append(value)
    return tuple(names)


def top_level_statements(body):
    """Module-level statements, looking inside `if`/`try` blocks (guarded imports are common)."""
    for statement in body:
        if isinstance(statement, cst.If):
            yield from top_level_statements(statement.body.body)
            orelse = statement.orelse
            while orelse is not None:
                yield from top_level_statements(orelse.body.body)
                orelse = getattr(orelse, "orelse", None)
        elif isinstance(statement, cst.Try):
            yield from top_level_statements(statement.body.body)
            for handler in statement.handlers:
                yield from top_level_statements(handler.body.body)
            for block in (statement.orelse, statement.finalbody):
                if block is not None:
                    yield from top_level_statements(block.body.body)
        else:
            yield statement


def guarded_definitions(body):
    """The classes and functions defined in the body of a module-level `try` block (`try: import pyro` /
    `class Likelihood(...)` / `except ImportError: ...`), which run whenever its imports succeed, after the module's
    unguarded ones (which they never replace), the first of a name winning. Definitions in `except` handlers (a
    fallback for an import the environment may well satisfy) and in `if` blocks (`if TYPE_CHECKING:`, `if
    is_x_available():`, decided by the environment) are left out."""
    seen: set[str] = {s.name.value for s in body if isinstance(s, (cst.ClassDef, cst.FunctionDef))}
    for statement in body:
        if isinstance(statement, cst.Try):
            for inner in statement.body.body:
                if isinstance(inner, (cst.ClassDef, cst.FunctionDef)) and inner.name.value not in seen:
                    seen.add(inner.name.value)
                    yield inner

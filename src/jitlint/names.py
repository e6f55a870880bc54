"""Import aliases and qualified names, per file.

LibCST's QualifiedNameProvider resolves every name in a file through full scope analysis; on torch's own `nn`
package that costs several times the parse. The rules only need to know what a handful of dotted names refer to
(`nn.ModuleList`, `torch.jit.is_scripting`, `np.abs`, a base class), so a table of the file's imports and
top-level definitions answers them.
"""

from __future__ import annotations

import builtins
from pathlib import Path

import libcst as cst

from jitlint.paths import has_init, is_project_root, module_name_of, resolved  # noqa: F401  (re-exported)

BUILTIN_NAMES = frozenset(dir(builtins))

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

    @classmethod
    def from_module(cls, module: cst.Module, module_name: str, is_package: bool = False) -> "ImportTable":
        table = cls(module_name, is_package)
        for statement in top_level_statements(module.body):
            table._add_statement(statement)
        return table

    def _add_statement(self, statement: cst.CSTNode) -> None:
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            self.local_definitions.add(statement.name.value)
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
                    else:
                        # `import torch.nn` binds `torch`
                        top = full.split(".", 1)[0]
                        self.aliases[top] = top
            elif isinstance(small, cst.ImportFrom):
                base = self._resolve_from(small)
                if base is None or isinstance(small.names, cst.ImportStar):
                    continue
                for alias in small.names:
                    name = dotted_name(alias.name)
                    if name is None:
                        continue
                    bound = name
                    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                        bound = alias.asname.name.value
                    self.aliases[bound] = f"{base}.{name}" if base else name
            elif isinstance(small, (cst.Assign, cst.AnnAssign)):
                targets = small.targets if isinstance(small, cst.Assign) else [small]
                for target in targets:
                    node = target.target
                    if isinstance(node, cst.Name):
                        self.local_definitions.add(node.value)
                        self.aliases.pop(node.value, None)

    def _resolve_from(self, node: cst.ImportFrom) -> str | None:
        module = dotted_name(node.module) if node.module is not None else ""
        if module is None:
            return None
        level = len(node.relative)
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
        if name is None:
            return None
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

"""Phase one of a run: each file read with Python's `ast`, into the project index's `ModuleInfo`, without LibCST.

What the capture maps and the cross-file rules read of a file they do not lint (its imports, classes and their
bases, methods and decorators, what `__init__` and the other methods assign to `self.<name>`, the class-level
annotations and `__name__` lists, top-level functions and module-level names) comes from `ast`, which reads a file
about eight times faster than LibCST. The fields of the index that hold LibCST nodes (a function's `FunctionDef`, a
class's `ClassDef`, a module-level value, a class-level annotation, a value `__init__` assigns, the whole module)
hold a `project.Lazy` instead: the first read parses the smallest piece of the file's text that holds the node (the
method, the top-level statement, the class) with LibCST, as it parses in the whole file (the node's own leading
comment lines aside), and keeps it. `layout.PARSES` counts those pieces apart from whole files.

`build_module` gives the same index as `ModuleInfo.build` of the LibCST tree: the same names, bases, decorators,
attribute kinds and flags, in the same order (`tests/test_summary.py` compares the two on every file of the
repository and its fixtures). A file `ast` cannot read is not summarized (the run parses it with LibCST).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import libcst as cst

from jitlint import layout
from jitlint.facts.torch_api import CONTAINER_KINDS
from jitlint.methods import add_method
from jitlint.names import ImportTable, guarded_definitions, module_name_for, resolved
from jitlint.project import (
    BUILTIN_TYPES,
    MIXABLE_LITERALS,
    FILLING_METHODS,
    REGISTRATIONS,
    AttributeInfo,
    AttributeRecorder,
    CallResult,
    ClassInfo,
    CollectionOf,
    ElementOf,
    FunctionInfo,
    Lazy,
    LazyValues,
    MethodResult,
    ModuleInfo,
    SelfAssignmentCollector,
    SourceExpression,
    joined,
    shared,
)

_FINAL_NAMES = ("typing.Final", "typing_extensions.Final", "torch.jit.Final")
_LINE_END = re.compile(r"\r\n|\r|\n")


# -- the text a node is parsed from -----------------------------------------------------------------------------
def split_lines(text: str) -> list[str]:
    """The lines of `text` with their ends, split where Python's tokenizer (and `ast`'s line numbers) split."""
    lines: list[str] = []
    start = 0
    for match in _LINE_END.finditer(text):
        lines.append(text[start:match.end()])
        start = match.end()
    if start < len(text):
        lines.append(text[start:])
    return lines


class FileText:
    """A summarized file's text, read again from disk when a node of it is first parsed (the few files being
    parsed from are kept, by path, size and modification time: a process that lints again after an edit, the editor
    server or a test, reads the file anew)."""

    _recent: dict[tuple, list[str]] = {}
    _LIMIT = 8

    @classmethod
    def lines(cls, path: Path) -> list[str]:
        status = path.stat()
        key = (str(path), status.st_size, status.st_mtime_ns)
        found = cls._recent.get(key)
        if found is None:
            from jitlint.source import decode

            found = split_lines(decode(path.read_bytes()))
            if len(cls._recent) >= cls._LIMIT:
                cls._recent.pop(next(iter(cls._recent)))
            cls._recent[key] = found
        return found

    @classmethod
    def forget(cls, path: Path | None = None) -> None:
        for key in list(cls._recent):
            if path is None or key[0] == str(path):
                del cls._recent[key]


def _piece(module: ModuleInfo, first: int, last: int, kind: str, wrapped: bool) -> cst.CSTNode:
    """The statement on lines `first`..`last` (1-based) of a summarized module's file, parsed with LibCST; `wrapped`:
    a statement of a class body, parsed inside a class of its own so that its indentation stays what it is in the
    file. A first block written with the file's first indentation gives the piece the file's default indentation
    and newline (what LibCST compares a block's indentation with), so its nodes are the ones the whole file gives."""
    indent, newline = getattr(module, "layout", ("    ", "\n"))
    text = "".join(FileText.lines(module.path)[first - 1:last])
    prelude = f"if 1:{newline}{indent}pass{newline}"
    if wrapped:
        prelude += f"class _:{newline}"
    tree = layout.parse_module(prelude + text, snippet=kind)
    statement = tree.body[1]
    if wrapped:
        statement = statement.body.body[0]
    return statement


def _resolve_tree(module: ModuleInfo) -> cst.Module:
    """A summarized module's whole tree; the classes and functions not parsed yet take their nodes from it."""
    from jitlint.source import decode

    text = decode(Path(module.path).read_bytes())
    tree = layout.parse_module(text, path=module.path)
    classes = {statement.name.value: statement for statement in tree.body if isinstance(statement, cst.ClassDef)}
    functions = {statement.name.value: statement for statement in tree.body
                 if isinstance(statement, cst.FunctionDef)}
    for statement in guarded_definitions(tree.body):  # (names the module does not define unguarded)
        (classes if isinstance(statement, cst.ClassDef) else functions)[statement.name.value] = statement
    for name, cls in module.classes.items():
        if not cls.parsed and name in classes:
            cls.node = classes[name]
            _bind_methods(cls)
    for name, function in module.functions.items():
        if not function.parsed and name in functions:
            function.node = functions[name]
    return tree


def _resolve_class(cls: ClassInfo, first: int, last: int) -> cst.ClassDef:
    node = _piece(cls.module, first, last, "class", False)
    if not isinstance(node, cst.ClassDef) or node.name.value != cls.name:
        node = _from_tree(cls.module, cst.ClassDef, cls.name)
    cls._node = node
    _bind_methods(cls)
    return node


def _bind_methods(cls: ClassInfo) -> None:
    """The methods not parsed yet take their nodes from the class's (the last definition of each name, and the
    earlier ones it `shadows`)."""
    body = cls.node.body
    if not isinstance(body, cst.IndentedBlock):
        return
    found: dict[str, list[cst.FunctionDef]] = {}
    for statement in body.body:
        if isinstance(statement, cst.FunctionDef):
            found.setdefault(statement.name.value, []).append(statement)
    for name, method in cls.methods.items():
        for statement in reversed(found.get(name, ())):  # the method, then what it `shadows` (`add_method`)
            if method is None:
                break
            if not method.parsed:
                method.node = statement
            method = method.shadows


def _from_tree(module: ModuleInfo, kind: type, name: str):
    """The last top-level `kind` named `name` of the module's whole tree (where a piece did not parse alone), or
    else the one a module-level `try` body defines (`names.guarded_definitions`)."""
    found = None
    for statement in module.tree.body:
        if isinstance(statement, kind) and statement.name.value == name:
            found = statement
    if found is None:
        found = next((statement for statement in guarded_definitions(module.tree.body)
                      if isinstance(statement, kind) and statement.name.value == name), None)
    if found is None:
        raise LookupError(f"{name} is not in {module.path}")
    return found


def _resolve_function(function: FunctionInfo, first: int, last: int) -> cst.FunctionDef:
    cls = function.cls
    if cls is not None and cls.parsed:  # its class is parsed already: the node is there
        _bind_methods(cls)
        if function.parsed:
            return function.node
    try:
        node = _piece(function.module, first, last, "method" if cls is not None else "function", cls is not None)
    except (cst.ParserSyntaxError, IndexError, AttributeError):
        node = None
    if not isinstance(node, cst.FunctionDef) or node.name.value != function.name:
        if cls is None:
            node = _from_tree(function.module, cst.FunctionDef, function.name)
        else:
            _bind_methods(cls)  # (parses the class)
            if not function.parsed:
                raise LookupError(f"{function.qualname} is not in {function.module.path}")
            return function.node
    return node


def _resolve_guarded(item: "ClassInfo | FunctionInfo", kind: type):
    """A class or function a module-level `try` body defines, from the whole tree (indented, it is no piece)."""
    node = _from_tree(item.module, kind, item.name)
    if isinstance(item, ClassInfo):
        item._node = node
        _bind_methods(item)
    return node


def _resolve_guarded_method(method: FunctionInfo) -> cst.FunctionDef:
    """A method of a class a module-level `try` body defines: from its class, parsed with the whole tree."""
    _bind_methods(method.cls)  # (parses the class)
    if not method.parsed:
        raise LookupError(f"{method.qualname} is not in {method.module.path}")
    return method.node


def _resolve_global(module: ModuleInfo, first: int, last: int, index: int) -> cst.BaseExpression:
    """The value of the `index`-th small statement of the module-level statement line on lines `first`..`last`."""
    try:
        line = _piece(module, first, last, "global", False)
        small = line.body[index]
    except (cst.ParserSyntaxError, IndexError, AttributeError):
        small = None
    if not isinstance(small, (cst.Assign, cst.AnnAssign)) or small.value is None:
        raise LookupError(f"no module-level value on line {first} of {module.path}")
    return small.value


def _resolve_class_level(cls: ClassInfo, name: str, what: str) -> cst.BaseExpression | None:
    """What the class body assigns or annotates `name` with, as `ModuleInfo` indexes it from the parsed class."""
    scratch = ClassInfo(cls.name, cls.node, cls.module, [])
    body = cls.node.body.body if isinstance(cls.node.body, cst.IndentedBlock) else ()
    for statement in body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                ModuleInfo._index_class_statement(cls.module, scratch, small)
    attribute = scratch.own_attributes.get(name)
    return None if attribute is None else (attribute.annotation if what == "annotation" else attribute.class_value)


_INIT_VALUES: dict[int, tuple[cst.FunctionDef, ClassInfo]] = {}


def _resolve_init_value(method: FunctionInfo, name: str, index: int) -> cst.BaseExpression:
    """The `index`-th value `__init__` assigns to `self.<name>`, from the parsed method, as `ModuleInfo` finds it."""
    node = method.node
    kept = _INIT_VALUES.get(id(method))
    if kept is None or kept[0] is not node:
        scratch = ClassInfo(method.cls.name, method.cls._node, method.module, [])
        collector = SelfAssignmentCollector(_first_param_of(node), scratch, method.module.imports, method)
        from jitlint.walk import walk

        walk(node.body, collector)
        if len(_INIT_VALUES) > 64:
            _INIT_VALUES.clear()
        kept = _INIT_VALUES[id(method)] = (node, scratch)
    return kept[1].own_attributes[name].init_values[index].node


def _first_param_of(node: cst.FunctionDef) -> str | None:
    params = node.params.posonly_params or node.params.params
    return params[0].name.value if params else None


# -- an import table and qualified names from `ast`, as `ImportTable` builds them from LibCST ------------------
def dotted(node: ast.AST) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def qualify(table: ImportTable, node: ast.AST) -> str | None:
    """`ImportTable.qualify` of the same expression written in LibCST."""
    name = dotted(node)
    return None if name is None else table.qualify_dotted(name)


class _Source:
    """The text of the file being summarized, for what `ast` does not keep: whether a block is a one-line suite,
    whether a string is one literal or several written side by side."""

    def __init__(self, text: str) -> None:
        self.lines = split_lines(text)
        self._encoded: dict[int, bytes] = {}

    def _line(self, number: int) -> bytes:
        found = self._encoded.get(number)
        if found is None:
            found = self._encoded[number] = self.lines[number - 1].encode("utf-8", "surrogatepass")
        return found

    def after_header(self, statement: ast.stmt) -> bool:
        """Whether the first statement of a block shares its line with the block's header (a one-line suite)."""
        return bool(self._line(statement.lineno)[:statement.col_offset].strip())

    def segment(self, node: ast.AST) -> str:
        first, last = node.lineno, node.end_lineno
        if first == last:
            return self._line(first)[node.col_offset:node.end_col_offset].decode("utf-8", "surrogatepass")
        parts = [self._line(first)[node.col_offset:]]
        parts.extend(self._line(number) for number in range(first + 1, last))
        parts.append(self._line(last)[:node.end_col_offset])
        return b"".join(parts).decode("utf-8", "surrogatepass")

    def last_line(self, node: ast.stmt) -> int:
        """A compound statement's last line, with the blank and comment lines after it (LibCST gives the comments
        indented as its innermost block to that block's footer)."""
        last = node.end_lineno
        while last < len(self.lines):
            following = self.lines[last].strip()
            if following and not following.startswith("#"):
                break
            last += 1
        return last

    def one_string(self, node: ast.AST) -> bool:
        """Whether a string constant (or f-string) is a single literal, not several written side by side (LibCST's
        `SimpleString`/`FormattedString` rather than `ConcatenatedString`)."""
        try:
            tokens = tokenize.generate_tokens(io.StringIO("(" + self.segment(node) + ")").readline)
            count = sum(1 for token in tokens if token.type == tokenize.STRING)
        except (tokenize.TokenError, SyntaxError, IndentationError):
            return False
        return count == 1


def module_level(body, source: _Source | None = None):
    """Module-level statements, inside `if` (all branches) and `try` (the body, the handlers, `else` and
    `finally`). With the file's `source`, `names.top_level_statements` of the same code: blocks that are one-line
    suites are left out (LibCST's statements there are not statement lines)."""
    def block(statements):
        if statements and (source is None or not source.after_header(statements[0])):
            yield from module_level(statements, source)

    for statement in body:
        if isinstance(statement, ast.If):
            yield from block(statement.body)
            yield from block(statement.orelse)  # (an `elif` starts its own line: not a one-line suite)
        elif isinstance(statement, ast.Try):
            yield from block(statement.body)
            for handler in statement.handlers:
                yield from block(handler.body)
            yield from block(statement.orelse)
            yield from block(statement.finalbody)
        else:
            yield statement


def import_table(tree: ast.Module, module_name: str, is_package: bool, source: _Source) -> ImportTable:
    """`ImportTable.from_module` of an `ast` module; a statement's position (what a later binding of a name a star
    import brings is compared with, `ImportTable.bind_star`) is its line, as LibCST's statement lines are ordered."""
    table = ImportTable(module_name, is_package)
    for statement in module_level(tree.body, source):
        position = statement.lineno
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            table.local_definitions.add(statement.name)
            table._bound_at[statement.name] = position
        elif isinstance(statement, ast.Import):
            for alias in statement.names:
                if alias.asname is not None:
                    table.aliases[alias.asname] = alias.name
                    table._bound_at[alias.asname] = position
                else:
                    top = alias.name.split(".", 1)[0]
                    table.aliases[top] = top
                    table._bound_at[top] = position
        elif isinstance(statement, ast.ImportFrom):
            base = _resolve_from(table, statement)
            if base is None:
                continue
            if any(alias.name == "*" for alias in statement.names):
                if base:
                    table.stars.append((base, position))
                continue
            for alias in statement.names:
                bound = alias.asname if alias.asname is not None else alias.name
                table.aliases[bound] = f"{base}.{alias.name}" if base else alias.name
                table._bound_at[bound] = position
        elif isinstance(statement, (ast.Assign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    table.local_definitions.add(target.id)
                    table.aliases.pop(target.id, None)
                    table._bound_at[target.id] = position
                    if target.id == "__all__":
                        table.note_all(_literal_strings(statement.value, source))
        elif (isinstance(statement, ast.AugAssign) and isinstance(statement.target, ast.Name)
              and statement.target.id == "__all__"):
            table.note_all(None)
    return table


def _literal_strings(node: ast.expr | None, source: _Source) -> tuple[str, ...] | None:
    """`names.literal_strings` of an `ast` value: the strings of a list or tuple of single string literals."""
    if not isinstance(node, (ast.List, ast.Tuple)):
        return None
    names = []
    for element in node.elts:
        if not (isinstance(element, ast.Constant) and isinstance(element.value, str) and source.one_string(element)):
            return None
        names.append(element.value)
    return tuple(names)


def _resolve_from(table: ImportTable, node: ast.ImportFrom) -> str | None:
    return table.import_base(node.module or "", node.level or 0)


# -- the module's index -----------------------------------------------------------------------------------------
def first_line(node: ast.stmt) -> int:
    """The first line of a definition, its decorators included (where LibCST's node starts)."""
    decorators = getattr(node, "decorator_list", None)
    return min([node.lineno, *(decorator.lineno for decorator in decorators)]) if decorators else node.lineno


def _line_groups(body: list[ast.stmt]) -> list[tuple[int, int, list[ast.stmt]]]:
    """The simple statements of a block as LibCST groups them in statement lines (`a = 1; b = 2` is one line):
    (first line, last line, statements)."""
    groups: list[tuple[int, int, list[ast.stmt]]] = []
    previous_simple = False
    for statement in body:
        simple = not isinstance(statement, COMPOUND)
        if simple and previous_simple and groups and statement.lineno == groups[-1][1]:
            first, _last, members = groups[-1]
            members.append(statement)
            groups[-1] = (first, statement.end_lineno, members)
        elif simple:
            groups.append((statement.lineno, statement.end_lineno, [statement]))
        previous_simple = simple
    return groups


COMPOUND = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.For, ast.AsyncFor, ast.While,
             ast.With, ast.AsyncWith, ast.Try, ast.TryStar, ast.Match)


def decorator_names(node, table: ImportTable) -> frozenset[str]:
    names = set()
    for decorator in node.decorator_list:
        expr = decorator.func if isinstance(decorator, ast.Call) else decorator
        qualified = qualify(table, expr) or dotted(expr)
        if qualified:
            names.add(qualified)
    return shared(names) if names else frozenset()


def _layout(tree: ast.Module, source: _Source) -> tuple[str, str]:
    """The default indentation and newline LibCST finds in the file: the indentation of the first block whose body
    starts on a line of its own (its first INDENT token), and the first line's end."""
    newline = "\n"
    for line in source.lines:
        end = _LINE_END.search(line)
        if end is not None:
            newline = end.group()
            break
    for statement in tree.body:
        if isinstance(statement, ast.Match):
            if statement.cases and statement.cases[0].pattern.lineno > statement.lineno:
                line = source.lines[statement.cases[0].pattern.lineno - 1]
                return line[:len(line) - len(line.lstrip(" \t\f"))], newline
            continue
        for block in _blocks(statement):
            if block and not source.after_header(block[0]):
                line = source.lines[block[0].lineno - 1]
                return line[:len(line) - len(line.lstrip(" \t\f"))], newline
    return "    ", newline


def _blocks(statement: ast.stmt) -> list[list]:
    """The blocks of a compound statement in source order."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.With, ast.AsyncWith)):
        return [statement.body]
    if isinstance(statement, (ast.If, ast.For, ast.AsyncFor, ast.While)):
        return [statement.body, statement.orelse]
    if isinstance(statement, (ast.Try, ast.TryStar)):
        return [statement.body, *(handler.body for handler in statement.handlers), statement.orelse,
                statement.finalbody]
    return []


def build_module(path: Path, display_name: str, text: str, tree: ast.Module,
                 name: str | None = None) -> ModuleInfo | None:
    """The index of a file read with `ast` (`tree` of `text`), with the nodes LibCST would give parsed when first
    read. `name`: its module name when the caller knows it (else from the directories, as `ModuleInfo.build`).
    A file with a top-level star import of a project module: what the import binds is added when the module joins
    a project (`names.bind_stars`, as `ModuleInfo.build` does); None when the file also defines classes or
    functions, whose names are read through those bindings (`ModuleInfo.build` indexes it)."""
    if name is None:
        name = module_name_for(path)[0]
    source = _Source(text)
    table = import_table(tree, name, path.name == "__init__.py", source)
    if table.stars and any(isinstance(statement, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                           for statement in (*tree.body, *_guarded_definitions(tree.body))):
        return None  # its classes' and functions' names are read through what the star imports bind (the project's)
    module = ModuleInfo(name, path, display_name, None, table, False, globals=LazyValues())
    module._tree = Lazy(_resolve_tree, module)
    module.layout = _layout(tree, source)
    for first, last, members in _line_groups(tree.body):
        for index, small in enumerate(members):
            if isinstance(small, ast.Assign) and len(small.targets) == 1 and isinstance(small.targets[0], ast.Name):
                dict.__setitem__(module.globals, small.targets[0].id, Lazy(_resolve_global, module, first, last, index))
            elif (isinstance(small, ast.AnnAssign) and small.value is not None
                  and isinstance(small.target, ast.Name)):
                dict.__setitem__(module.globals, small.target.id, Lazy(_resolve_global, module, first, last, index))
    for statement in tree.body:
        if isinstance(statement, ast.ClassDef):
            _index_class(module, statement, source)
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = FunctionInfo(statement.name, None, module, None, decorator_names(statement, table))
            function._node = Lazy(_resolve_function, function, first_line(statement), source.last_line(statement))
            module.functions[statement.name] = function
    for statement in _guarded_definitions(tree.body):  # as `ModuleInfo` indexes them
        if isinstance(statement, ast.ClassDef):
            _index_class(module, statement, source, guarded=True)
        else:
            function = FunctionInfo(statement.name, None, module, None, decorator_names(statement, table))
            function._node = Lazy(_resolve_guarded, function, cst.FunctionDef)
            module.functions[statement.name] = function
    return module


def _guarded_definitions(body: list[ast.stmt]):
    """`names.guarded_definitions` of an `ast` body: the classes and functions of module-level `try` bodies whose
    names the module does not define unguarded, the first of a name winning."""
    definitions = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    seen = {statement.name for statement in body if isinstance(statement, definitions)}
    for statement in body:
        if isinstance(statement, ast.Try):
            for inner in statement.body:
                if isinstance(inner, definitions) and inner.name not in seen:
                    seen.add(inner.name)
                    yield inner


def _index_class(module: ModuleInfo, node: ast.ClassDef, source: _Source, guarded: bool = False) -> None:
    """`guarded`: a class of a module-level `try` body, whose nodes come from the whole tree."""
    table = module.imports
    # a subscripted base (`Generic[T]`, `Base[int]`) is its origin class: `__mro_entries__` of the alias
    bases = [qualify(table, base.value if isinstance(base, (ast.Starred, ast.Subscript)) else base)
             for base in node.bases]
    info = ClassInfo(node.name, None, module, bases)
    info._node = (Lazy(_resolve_guarded, info, cst.ClassDef) if guarded
                  else Lazy(_resolve_class, info, first_line(node), source.last_line(node)))
    body = node.body if not source.after_header(node.body[0]) else []
    definitions: dict[str, ast.FunctionDef] = {}
    for statement in body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            method = FunctionInfo(statement.name, None, module, info, decorator_names(statement, table))
            method._node = (Lazy(_resolve_guarded_method, method) if guarded
                            else Lazy(_resolve_function, method, first_line(statement), source.last_line(statement)))
            add_method(info.methods, method)
            definitions[statement.name] = statement
        elif not isinstance(statement, COMPOUND):
            _index_class_statement(info, statement, table, source)
    for name, method in info.methods.items():
        _collect_self_assignments(method, definitions[name], info, table, source)
    module.classes[info.name] = info


def _index_class_statement(info: ClassInfo, small: ast.stmt, table: ImportTable, source: _Source) -> None:
    if isinstance(small, ast.AnnAssign) and isinstance(small.target, ast.Name):
        name = small.target.id
        attribute = info.own_attributes.setdefault(name, AttributeInfo())
        annotation = small.annotation
        attribute._annotation = Lazy(_resolve_class_level, info, name, "annotation")
        attribute.annotation_imports = table
        attribute._class_value = (Lazy(_resolve_class_level, info, name, "value") if small.value is not None
                                  else None)
        outer = annotation.value if isinstance(annotation, ast.Subscript) else annotation
        if qualify(table, outer) in _FINAL_NAMES:
            attribute.final = True
        kind = CONTAINER_KINDS.get(qualify(table, annotation) or "")
        if kind:
            attribute.kinds = joined(attribute.kinds, {kind})
    elif isinstance(small, ast.Assign):
        for target in small.targets:
            if not isinstance(target, ast.Name):
                continue
            name = target.id
            if name.startswith("__") and name.endswith("__"):
                info.string_lists[name] = _string_elements(small.value, source)
            elif not name.startswith("__"):
                info.own_attributes.setdefault(name, AttributeInfo())._class_value = Lazy(
                    _resolve_class_level, info, name, "value")


def _string_elements(node: ast.expr, source: _Source) -> list[str]:
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        values = [element.value if isinstance(element, ast.Starred) else element for element in node.elts]
        return [value.value for value in values
                if isinstance(value, ast.Constant) and type(value.value) is str and source.one_string(value)]
    return []


# -- what methods assign to `self.<name>`: `project.SelfAssignmentCollector` over `ast` ------------------------
def _source_order(node: ast.AST):
    """The children of an `ast` node in the order LibCST visits the same code (source order)."""
    if isinstance(node, ast.IfExp):
        return [node.body, node.test, node.orelse]
    if isinstance(node, ast.Call):
        return [node.func, *sorted([*node.args, *node.keywords], key=_position)]
    if isinstance(node, ast.Dict):
        return [part for key, value in zip(node.keys, node.values) for part in (key, value) if part is not None]
    if isinstance(node, ast.ClassDef):
        return [*node.decorator_list, *node.bases, *node.keywords, *node.body]
    return list(ast.iter_child_nodes(node))


# Not walked for assignments: nested functions and lambdas (their own `self`), and what can hold no call and no
# assignment (names, constants, and the operator and context leaves `ast` gives every expression).
_NOT_WALKED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Name, ast.Constant, ast.expr_context,
               ast.operator, ast.boolop, ast.cmpop, ast.unaryop)


def _position(node: ast.AST) -> tuple[int, int]:
    return node.lineno, node.col_offset


def _arguments(call: ast.Call) -> list[ast.expr]:
    """The values of a call's arguments in source order, as LibCST's `Arg.value` gives them (after `*`/`**`)."""
    ordered = sorted([*call.args, *call.keywords], key=_position)
    return [item.value if isinstance(item, (ast.Starred, ast.keyword)) else item for item in ordered]


class _Assignments:
    """The facts of `project.AttributeRecorder` in a method read with `ast`."""

    def __init__(self, self_name: str, info: ClassInfo, table: ImportTable, method: FunctionInfo,
                 definition: ast.FunctionDef, source: _Source) -> None:
        self.self_name = self_name
        self.table = table
        self.function = method
        self.source = source
        self.recorder = AttributeRecorder(info, method.name)
        self.values: dict[str, int] = {}  # attribute -> how many values `__init__` assigned it so far
        args = definition.args
        positional = [*args.posonlyargs, *args.args]
        self.defaults: dict[str, ast.expr] = {}
        for arg, default in zip(positional[len(positional) - len(args.defaults):], args.defaults):
            self.defaults[arg.arg] = default
        for arg, default in zip(args.kwonlyargs, args.kw_defaults):
            if default is not None:
                self.defaults[arg.arg] = default

    def walk(self, node: ast.AST) -> None:
        if isinstance(node, _NOT_WALKED):
            return
        if isinstance(node, ast.Call):
            self.call(node)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                self.record(target, node.value)
                if isinstance(target, ast.Subscript):
                    filled = self.self_attribute_name(target.value)
                    if filled is not None:
                        self.recorder.filled(filled)
        elif isinstance(node, ast.AnnAssign):
            self.record(node.target, node.value)
        for child in _source_order(node):
            self.walk(child)

    def literal_name(self, node: ast.expr) -> str | None:
        if isinstance(node, ast.Constant) and type(node.value) is str and self.source.one_string(node):
            return node.value
        self.recorder.computed_name()
        return None

    def self_attribute_name(self, node: ast.expr) -> str | None:
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == self.self_name:
            return node.attr
        return None

    def call(self, node: ast.Call) -> None:
        func = node.func
        arguments = _arguments(node)
        if not arguments:
            return
        if (isinstance(func, ast.Attribute) and func.attr in FILLING_METHODS
                and (filled := self.self_attribute_name(func.value)) is not None):
            self.recorder.filled(filled)
        if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == self.self_name
                and func.attr in REGISTRATIONS):
            name = self.literal_name(arguments[0])
            if name is not None:
                self.recorder.registered(name)
        elif (isinstance(func, ast.Name) and func.id == "setattr" and len(arguments) == 3
              and isinstance(arguments[0], ast.Name) and arguments[0].id == self.self_name):
            name = self.literal_name(arguments[1])
            if name is not None:
                self.recorder.assigned(name)

    def record(self, target: ast.expr, value: ast.expr | None, kinds: set | None = None) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            self.record_unpacked(target, value)
            return
        name = self.self_attribute_name(target)
        if name is None:
            return
        if kinds is not None or value is None:
            self.recorder.assigned(name, kinds)
            return
        found, function = value_kinds(value, self.table, self.self_name, self.source)
        self.recorder.stored(name, found, function, lambda: self.init_value(name), lambda: _bool_literal(
            self.defaults.get(value.id) if isinstance(value, ast.Name) and value.id in self.defaults else value))

    def init_value(self, name: str) -> SourceExpression:
        """The next value `__init__` assigns to `self.<name>`, parsed with LibCST when first read."""
        index = self.values.get(name, 0)
        self.values[name] = index + 1
        return SourceExpression(Lazy(_resolve_init_value, self.function, name, index), self.table)

    def record_unpacked(self, target: ast.Tuple | ast.List, value: ast.expr | None) -> None:
        elements = [element.value if isinstance(element, ast.Starred) else element for element in target.elts]
        starred = any(isinstance(element, ast.Starred) for element in target.elts)
        if (isinstance(value, (ast.Tuple, ast.List)) and not starred and len(value.elts) == len(elements)
                and not any(isinstance(item, ast.Starred) for item in value.elts)):
            for element, item in zip(elements, value.elts):
                self.record(element, item)
            return
        sources = set()
        if value is not None and not starred:
            sources = {kind for kind in value_kinds(value, self.table, self.self_name, self.source)[0]
                       if isinstance(kind, (MethodResult, CallResult))}
        for index, element in enumerate(elements):
            if isinstance(element, (ast.Tuple, ast.List)):
                self.record_unpacked(element, None)
                continue
            self.record(element, None, {ElementOf(source, index) for source in sources} or {"other"})


def _bool_literal(node: ast.expr | None) -> bool | None:
    if isinstance(node, ast.Constant) and type(node.value) is bool:
        return node.value
    return None


def _collect_self_assignments(method: FunctionInfo, definition: ast.FunctionDef, info: ClassInfo,
                              table: ImportTable, source: _Source) -> None:
    args = definition.args
    positional = args.posonlyargs or args.args
    self_name = positional[0].arg if positional else None
    if self_name is None or method.bound_first_param != "instance":
        return
    collector = _Assignments(self_name, info, table, method, definition, source)
    for statement in definition.body:
        collector.walk(statement)


def value_kinds(value: ast.expr, table: ImportTable, self_name: str | None, source: _Source) -> tuple[set, str | None]:
    """`project.value_kinds` of the same expression written in LibCST."""
    if isinstance(value, ast.IfExp):
        body_kinds, body_fn = value_kinds(value.body, table, self_name, source)
        else_kinds, else_fn = value_kinds(value.orelse, table, self_name, source)
        return body_kinds | else_kinds, body_fn or else_fn
    if isinstance(value, ast.Constant) and value.value is None:
        return {"none"}, None
    if isinstance(value, ast.Call):
        func = value.func
        if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and self_name is not None
                and func.value.id == self_name):
            return {MethodResult(func.attr)}, None
        qualified = qualify(table, func)
        if qualified in ("builtins.list", "builtins.dict") and not (value.args or value.keywords):
            return {"empty-container"}, None
        if qualified in CONTAINER_KINDS:
            return {CONTAINER_KINDS[qualified]}, None
        if qualified:
            return {CallResult(qualified)}, None
        return {"other"}, None
    if isinstance(value, (ast.Name, ast.Attribute)):
        qualified = qualify(table, value)
        if qualified in BUILTIN_TYPES:
            return {"python-type"}, None
        if qualified and not qualified.startswith("builtins."):
            return {"reference"}, qualified
    if isinstance(value, ast.Constant):
        kind = type(value.value)
        if kind in (int, float, str, bytes):  # (True/False are bools: names to LibCST; complex: Imaginary)
            return {"literal"}, None
        return {"other"}, None
    if isinstance(value, ast.JoinedStr):  # an f-string alone is other, one written beside other strings a literal
        return ({"other"} if source.one_string(value) else {"literal"}), None
    if isinstance(value, ast.Lambda):
        return {"lambda"}, None
    if isinstance(value, ast.List) and not value.elts or isinstance(value, ast.Dict) and not value.keys:
        return {"empty-container"}, None
    if isinstance(value, (ast.List, ast.Tuple, ast.ListComp)):
        elements = [value.elt] if isinstance(value, ast.ListComp) else [
            element.value if isinstance(element, ast.Starred) else element for element in value.elts]
        return _collection_kinds("list", elements, table, self_name, source), None
    if isinstance(value, (ast.Dict, ast.DictComp)):
        elements = [value.value] if isinstance(value, ast.DictComp) else [
            item for key, item in zip(value.keys, value.values) if key is not None]
        return _collection_kinds("dict", elements, table, self_name, source), None
    return {"other"}, None


def literal_type(node: ast.expr, source: _Source) -> str | None:
    """`literals.literal_type` of the same expression written in LibCST."""
    if not isinstance(node, ast.Constant):
        return None
    value = node.value
    if value is None:
        return "None"
    kind = type(value)
    if kind is bool:
        return "bool"
    if kind is int:
        return "int"
    if kind is float:
        return "float"
    if kind is complex:
        return "complex"
    if kind in (str, bytes):
        return ("bytes" if kind is bytes else "str") if source.one_string(node) else None
    return None


def _collection_kinds(collection: str, elements, table: ImportTable, self_name: str | None,
                      source: _Source) -> set:
    literal_types = {MIXABLE_LITERALS[name] for element in elements
                     if (name := literal_type(element, source)) in MIXABLE_LITERALS}
    if collection == "list" and len(literal_types) > 1 and not literal_types <= {"int", "float"}:
        return {"mixed-list"}
    kinds: set = set()
    for element in elements:
        element_kinds, _function = value_kinds(element, table, self_name, source)
        kinds |= {CollectionOf(collection, element_kind) for element_kind in element_kinds}
    return kinds or {"other"}


def summarize_file(path: Path, text: str, display_name: str | None = None) -> ModuleInfo | None:
    """`build_module` of a file's text, or None when `ast` cannot read it."""
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return None
    try:
        return build_module(path, display_name or str(path), text, tree)
    except RecursionError:
        return None


__all__ = ["build_module", "summarize_file", "qualify", "import_table", "module_level", "resolved"]


# -- a summarized module parsed after all ---------------------------------------------------------------------
def adopt(module: ModuleInfo, tree: cst.Module, text: str | None, linted: bool = True) -> ModuleInfo:
    """Give a summarized module the whole file's tree, in place (every object that refers to its classes and
    functions keeps referring to them): each class, function and method takes its node from the tree, and the
    module-level values, class-level values and values `__init__` assigns are found there when next read. The
    module is then what `ModuleInfo.build` of the tree gives."""
    module._tree = tree
    module.linted = linted
    module.text = text if linted else None
    classes, functions = {}, {}
    globals_found = {}
    for statement in tree.body:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if isinstance(small, cst.Assign) and len(small.targets) == 1:
                    if isinstance(small.targets[0].target, cst.Name):
                        globals_found[small.targets[0].target.value] = small.value
                elif isinstance(small, cst.AnnAssign) and small.value is not None:
                    if isinstance(small.target, cst.Name):
                        globals_found[small.target.value] = small.value
        if isinstance(statement, cst.ClassDef):
            classes[statement.name.value] = statement
        elif isinstance(statement, cst.FunctionDef):
            functions[statement.name.value] = statement
    for statement in guarded_definitions(tree.body):  # (names the module does not define unguarded)
        (classes if isinstance(statement, cst.ClassDef) else functions)[statement.name.value] = statement
    for name in list(module.globals):
        if name in globals_found:
            dict.__setitem__(module.globals, name, globals_found[name])
    for name, function in module.functions.items():
        function._node = functions[name]
    for name, cls in module.classes.items():
        cls._node = classes[name]
        body = cls._node.body
        found = ({statement.name.value: statement for statement in body.body if isinstance(statement, cst.FunctionDef)}
                 if isinstance(body, cst.IndentedBlock) else {})
        for method_name, method in cls.methods.items():
            method._node = found[method_name]
        for attribute_name, attribute in cls.own_attributes.items():
            if attribute._annotation is not None:
                attribute._annotation = Lazy(_resolve_class_level, cls, attribute_name, "annotation")
            if attribute._class_value is not None:
                attribute._class_value = Lazy(_resolve_class_level, cls, attribute_name, "value")
            init = cls.methods.get("__init__")
            for index, value in enumerate(attribute.init_values):  # (in place: merged attributes share them)
                if init is not None:
                    value._node = Lazy(_resolve_init_value, init, attribute_name, index)
    return module

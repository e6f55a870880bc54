"""Where the project builds its module classes with literal arguments: what `--dynamic` builds a class with when it
needs constructor arguments, or when building it with its defaults raises.

The child builds a class root with a declared factory, else with its defaults; a class with a parameter that has
no default, or whose defaults are placeholders its constructor cannot use (an empty `ch=()` it indexes), is built
instead with the arguments of a construction site found here, tried in order:

- a call `Cls(...)` in a file of the linted files' packages (the linted files themselves and the rest of each
  package, which `--dynamic` would import anyway),
- a doctest example in a docstring of those files (`>>> head = Cls(nc=80, ch=(256, 512))`): the library's own
  word on how the class is built,

whose arguments are all literals (`ast.literal_eval` reads them) or what the file (or the example) imports or
defines at its top level, as it is or called with such arguments (`PITLossWrapper(pairwise_neg_sisdr,
pit_from='pw_mtx')`, `Wrapper(Loss("sisdr"))`: the library's own functions and classes, importable by their
qualified names: `refs`); a call with `*args`, `**kwargs`, or any other computed argument (a local variable, an
attribute of one, a builtin) is no site. The callee is resolved to the class as Python binds the name: the class's
own module, an import of it (a re-export followed through the project index), the example's own imports. Files are read with `ast`
(the scan reads only literal calls, in files the run may not lint) after a text filter on the classes' names.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from jitlint.names import module_name_for

# At most this many construction sites are tried per class.
MAX_SITES = 4
# Files larger than this are not read for construction sites (generated tables, vendored bundles).
MAX_FILE_BYTES = 2_000_000
_SKIPPED_DIRECTORIES = {"__pycache__", "node_modules", "build", "dist"}


def add_constructions(project, requests, factories: dict[str, str]) -> None:
    """Give each class root of `requests` that has no factory the construction sites found for it (in place)."""
    wanted: dict[str, list] = {}  # "module.Class" -> the roots (one class may be a root of several requests)
    for request in requests:
        for root in request.roots:
            key = f"{request.module}:{root.name}"
            if root.kind == "class" and key not in factories:
                wanted.setdefault(f"{request.module}.{root.name}", []).append(root)
    if not wanted:
        return
    sites = construction_sites(project, _package_files(requests), set(wanted))
    for qualified, roots in wanted.items():
        for root in roots:
            root.constructions = sites.get(qualified, [])[:MAX_SITES]


def _package_files(requests) -> list[Path]:
    """The Python files of the packages the requests' files belong to (a file outside any package: itself)."""
    files: dict[Path, None] = {}
    directories: set[Path] = set()
    for request in requests:
        files[Path(request.path)] = None
        top = request.module.split(".")[0]
        package = Path(request.root) / top
        if package.is_dir() and package not in directories:
            directories.add(package)
            for path in sorted(package.rglob("*.py")):
                parts = path.relative_to(package).parts[:-1]
                if not any(part.startswith(".") or part in _SKIPPED_DIRECTORIES for part in parts):
                    files[path] = None
    return list(files)


def construction_sites(project, paths: list[Path], wanted: set[str]) -> dict[str, list[dict]]:
    """For each qualified class name of `wanted`, the calls of it in `paths` whose arguments the child can build:
    [{"args": [source], "kwargs": {name: source}, "refs": {name: qualified}?, "where": "file:line"}], without
    repeats."""
    short = {name.rpartition(".")[2] for name in wanted}
    if not short:
        return {}
    names = "|".join(sorted(map(re.escape, short)))
    # a cheap pass first (without the word boundary, which makes a long alternation several times slower)
    maybe, mention = re.compile(r"(?:%s)\s*\(" % names), re.compile(r"\b(?:%s)\s*\(" % names)
    found: dict[str, list[dict]] = {}
    seen: set[tuple] = set()
    resolved: dict[str, str | None] = {}
    for path in paths:
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if not maybe.search(text) or not mention.search(text):
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        module_name = module_name_for(path)[0]
        bindings = _bindings(tree, module_name, path.name == "__init__.py")
        for call, names, line in _calls(tree, bindings, module_name, path.name == "__init__.py"):
            qualified = _callee(call.func, names)
            if qualified is None or qualified.rpartition(".")[2] not in short:
                continue
            if qualified not in resolved:
                resolved[qualified] = _class_named(project, qualified, wanted)
            target = resolved[qualified]
            site = _site_arguments(call, names)
            if target is None or site is None or (target, repr(site)) in seen:
                continue
            seen.add((target, repr(site)))
            found.setdefault(target, []).append({**site, "where": f"{path}:{line}"})
    return found


def _class_named(project, qualified: str, wanted: set[str]) -> str | None:
    """Which class of `wanted` the qualified name refers to (directly, or through the project's re-exports)."""
    if qualified in wanted:
        return qualified
    cls = project.resolve_class(qualified)
    name = f"{cls.module.name}.{cls.name}" if cls is not None else None
    return name if name in wanted else None


def _bindings(tree: ast.AST, module_name: str, is_package: bool) -> dict[str, str]:
    """What each name of the file refers to: its top-level classes and functions, and what any import statement
    in it binds (a function's own imports included: the scan reads calls anywhere in the file)."""
    names = {node.name: f"{module_name}.{node.name}" for node in getattr(tree, "body", ())
             if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))}
    for node in ast.walk(tree):
        names.update(_imported(node, module_name, is_package))
    return names


def _imported(node: ast.AST, module_name: str, is_package: bool) -> dict[str, str]:
    bound: dict[str, str] = {}
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname:
                bound[alias.asname] = alias.name
            else:
                top = alias.name.split(".")[0]
                bound[top] = top
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            package = module_name.split(".") if is_package else module_name.split(".")[:-1]
            if node.level - 1 > len(package):
                return bound
            package = package[: len(package) - (node.level - 1)]
            base = ".".join([*package, *([base] if base else [])])
        for alias in node.names:
            if alias.name != "*":
                bound[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name
    return bound


def _calls(tree: ast.AST, bindings: dict[str, str], module_name: str, is_package: bool):
    """(call, the names in scope for it, its line) of each call in the file's code and in its doctest examples."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield node, bindings, node.lineno
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str) and ">>>" in body[0].value.value:
                yield from _example_calls(body[0].value, bindings, module_name, is_package)


def _example_calls(docstring: ast.Constant, bindings: dict[str, str], module_name: str, is_package: bool):
    """The calls of a docstring's doctest examples (`>>> ` lines and their `... ` continuations), each example
    parsed on its own, with the names the examples import before it in scope."""
    names = dict(bindings)
    examples: list[tuple[int, list[str]]] = []
    for offset, line in enumerate(docstring.value.splitlines()):
        stripped = line.strip()
        if stripped.startswith(">>> ") or stripped == ">>>":
            examples.append((docstring.lineno + offset, [stripped[4:]]))
        elif (stripped.startswith("... ") or stripped == "...") and examples:
            examples[-1][1].append(stripped[4:])
    for line, lines in examples:
        try:
            parsed = ast.parse("\n".join(lines))
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(parsed):
            names.update(_imported(node, module_name, is_package))
        for node in ast.walk(parsed):
            if isinstance(node, ast.Call):
                yield node, names, line


def _callee(func: ast.AST, names: dict[str, str]) -> str | None:
    """The qualified name a call's callee (`Cls`, `pkg.mod.Cls`) refers to, through the names in scope."""
    parts: list[str] = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name) or func.id not in names:
        return None
    return ".".join([names[func.id], *reversed(parts)])


def _site_arguments(call: ast.Call, names: dict[str, str]) -> dict | None:
    """{"args": [source], "kwargs": {name: source}} when every argument is a literal or built from what `names`
    binds (then also "refs": {name: qualified name} of the names the sources use), else None."""
    refs: dict[str, str] = {}
    args: list[str] = []
    for argument in call.args:
        if isinstance(argument, ast.Starred) or not _buildable(argument, names, refs):
            return None
        args.append(ast.unparse(argument))
    kwargs: dict[str, str] = {}
    for keyword in call.keywords:
        if keyword.arg is None or not _buildable(keyword.value, names, refs):
            return None
        kwargs[keyword.arg] = ast.unparse(keyword.value)
    # a call with no arguments is the defaults, which the child tries first anyway
    if not args and not kwargs:
        return None
    return {"args": args, "kwargs": kwargs, **({"refs": refs} if refs else {})}


# How deeply a site's argument may nest calls and containers (`Wrapper(Loss(Inner(1)))`).
_MAX_DEPTH = 4


def _buildable(node: ast.AST, names: dict[str, str], refs: dict[str, str], depth: int = 0) -> bool:
    """Whether the argument is a literal, a name (or attribute of one) the file imports or defines at its top level,
    a call of such a name with such arguments, or a container of such values; the names used go to `refs`."""
    if _is_literal(node):
        return True
    if depth >= _MAX_DEPTH:
        return False
    if isinstance(node, (ast.Name, ast.Attribute)):
        root = node
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name) or root.id not in names:
            return False
        refs[root.id] = names[root.id]
        return True
    if isinstance(node, ast.Call):
        return _buildable(node.func, names, refs, depth + 1) and all(
            not isinstance(argument, ast.Starred) and _buildable(argument, names, refs, depth + 1)
            for argument in node.args) and all(
            keyword.arg is not None and _buildable(keyword.value, names, refs, depth + 1) for keyword in node.keywords)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(_buildable(element, names, refs, depth + 1) for element in node.elts)
    if isinstance(node, ast.Dict):
        return all(key is not None and _buildable(key, names, refs, depth + 1) for key in node.keys) and all(
            _buildable(value, names, refs, depth + 1) for value in node.values)
    return False


def _is_literal(node: ast.AST) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True

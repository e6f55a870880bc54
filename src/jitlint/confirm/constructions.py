"""Where the project builds its module classes with literal arguments: what `--dynamic` builds a class with when it
needs constructor arguments, or when building it with its defaults raises.

The child builds a class root with a declared factory, else with its defaults; a class with a parameter that has
no default, or whose defaults are placeholders its constructor cannot use (an empty `ch=()` it indexes), is built
instead with the arguments of a construction site found here, tried in order:

- a call `Cls(...)` in a file of the linted files' packages (the linted files themselves and the rest of each
  package, which `--dynamic` would import anyway),
- a doctest example in a docstring of those files (`>>> head = Cls(nc=80, ch=(256, 512))`): the library's own
  word on how the class is built,
- a Python code block of the package's README (a checkout's, or the installed distribution's METADATA): the same
  word, where most libraries say it,

whose arguments are all literals (`ast.literal_eval` reads them) or what the file (or the example) imports or
defines at its top level, as it is or called with such arguments (`PITLossWrapper(pairwise_neg_sisdr,
pit_from='pw_mtx')`, `Wrapper(Loss("sisdr"))`: the library's own functions and classes, importable by their
qualified names: `refs`), or a name the call's scope binds once, before it, to such a value (`model = Unet(dim=64)`
then `GaussianDiffusion(model, image_size=128)`: `lets`); a call with `*args`, `**kwargs`, or any other computed
argument (a parameter, a name bound twice, an attribute of one, a builtin) is no site. A class no site builds is
taken from a host: a class whose own code builds it, built itself (the child searches its submodules). The callee is resolved to the class as Python binds the name: the class's
own module, an import of it (a re-export followed through the project index), the example's own imports. Files are read with `ast`
(the scan reads only literal calls, in files the run may not lint) after a text filter on the classes' names.
"""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

from jitlint.names import module_name_for

# At most this many construction sites are tried per class.
MAX_SITES = 4
# A class no site builds is looked for inside the classes that build it (hosts), their hosts, ... this deep, and in
# at most this many of them.
MAX_HOST_DEPTH = 3
MAX_HOSTS = 8
# At most this many other classes' construction sites are offered to a class no site or host builds.
MAX_BORROWED = 6
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
    files = _package_files(requests)
    sites, hosts = scan(project, files, set(wanted), _documents(requests))
    # the hosts' own construction sites and hosts, a level at a time: a block built by a block built by a model
    known, frontier = set(wanted), {host for found in hosts.values() for host in found} - set(wanted)
    for _level in range(MAX_HOST_DEPTH - 1):
        if not frontier:
            break
        known |= frontier
        more_sites, more_hosts = scan(project, files, frontier, _documents(requests))
        sites.update(more_sites)
        hosts.update(more_hosts)
        frontier = {host for found in more_hosts.values() for host in found} - known
    for qualified, roots in wanted.items():
        for root in roots:
            root.constructions = sites.get(qualified, [])[:MAX_SITES]
            # a host some site builds first (one that needs arguments and has none never builds)
            ancestors = sorted(_ancestors(qualified, hosts), key=lambda host: host not in sites)
            root.hosts = [{"class": host, "constructions": sites.get(host, [])[:MAX_SITES]} for host in ancestors]
            if not root.constructions:
                root.borrowed = _borrowable(qualified, sites)


def _borrowable(qualified: str, sites: dict[str, list[dict]]) -> list[dict]:
    """The construction sites of other classes of the package (its own module's first), each with the class it
    builds: the child builds `qualified` with the values such a site gives the parameters of the same names, when
    they are all its required ones (`GaussianDiffusion(model, image_size=128)` in a README gives a sibling class
    taking `model, *, image_size` what the library says those are)."""
    module = qualified.rpartition(".")[0]
    others = sorted((name for name in sites if name != qualified), key=lambda name: name.rpartition(".")[0] != module)
    return [{**site, "class": name} for name in others for site in sites[name][:1]][:MAX_BORROWED]


def _ancestors(qualified: str, hosts: dict[str, list[str]]) -> list[str]:
    """The classes that build `qualified` in their own code, then the classes that build those, ... (nearest
    first, at most MAX_HOSTS, never the class itself)."""
    found: list[str] = []
    level = [qualified]
    for _depth in range(MAX_HOST_DEPTH):
        level = [host for name in level for host in hosts.get(name, []) if host != qualified and host not in found]
        level = list(dict.fromkeys(level))
        found.extend(level[: MAX_HOSTS - len(found)])
        if len(found) >= MAX_HOSTS or not level:
            break
    return found


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


def _documents(requests) -> list[Path]:
    """The documents that show how a linted package is used: the README of the directory it is imported from (a
    checkout), and the description of its installed distribution (`<name>-<version>.dist-info/METADATA`, the
    README a package index shows)."""
    found: dict[Path, None] = {}
    for request in requests:
        root, top = Path(request.root), request.module.split(".")[0]
        if not (root / top).is_dir():
            continue
        candidates = [root / name for name in README_NAMES]
        candidates += [info / "METADATA" for info in sorted(root.glob("*.dist-info"))
                       if info.name.partition("-")[0].lower().replace("-", "_").replace(".", "_") == top.lower()]
        found.update((path, None) for path in candidates if path.is_file())
    return list(found)


README_NAMES = ("README.md", "README.rst", "README.txt", "README")
_FENCE = re.compile(r"^\s*(```+|~~~+)\s*([\w+-]*)")


def example_blocks(text: str) -> list[tuple[int, str]]:
    """The Python code blocks of a Markdown document ((the line before the block's first, its code)): fenced
    blocks marked `python`/`py` or unmarked, and reStructuredText `.. code-block:: python` blocks. A block that
    does not parse is skipped by the caller."""
    blocks: list[tuple[int, str]] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        fence = _FENCE.match(lines[index])
        directive = lines[index].strip() in (".. code-block:: python", ".. code:: python", ".. code-block:: py")
        if fence and fence.group(2).lower() in ("python", "py", "python3", ""):
            end = next((j for j in range(index + 1, len(lines)) if lines[j].strip().startswith(fence.group(1))),
                       len(lines))
            blocks.append((index + 1, textwrap.dedent("\n".join(lines[index + 1:end]))))
            index = end + 1
            continue
        if fence:  # another language's block: skipped whole
            end = next((j for j in range(index + 1, len(lines)) if lines[j].strip().startswith(fence.group(1))),
                       len(lines))
            index = end + 1
            continue
        if directive:
            end = index + 1
            while end < len(lines) and (not lines[end].strip() or lines[end].startswith((" ", "\t"))):
                end += 1
            blocks.append((index + 1, textwrap.dedent("\n".join(lines[index + 1:end]))))
            index = end
            continue
        index += 1
    return blocks


def construction_sites(project, paths: list[Path], wanted: set[str]) -> dict[str, list[dict]]:
    """For each qualified class name of `wanted`, the calls of it in `paths` whose arguments the child can build:
    [{"args": [source], "kwargs": {name: source}, "refs": {name: qualified}?, "where": "file:line"}], without
    repeats."""
    return scan(project, paths, wanted)[0]


def scan(project, paths: list[Path], wanted: set[str], documents: list[Path] = ()) -> tuple[
        dict[str, list[dict]], dict[str, list[str]]]:
    """`construction_sites` (in `paths`, and in the code blocks of `documents`: `example_blocks`), and for each class
    of `wanted` its hosts: the top-level classes of `paths` whose own code calls it (with any arguments: the instance
    a built host holds is one the library built)."""
    short = {name.rpartition(".")[2] for name in wanted}
    hosts: dict[str, list[str]] = {}
    if not short:
        return {}, hosts
    names = "|".join(sorted(map(re.escape, short)))
    # a cheap pass first (without the word boundary, which makes a long alternation several times slower)
    maybe, mention = re.compile(r"(?:%s)\s*\(" % names), re.compile(r"\b(?:%s)\s*\(" % names)
    named = re.compile(r"\b(?:%s)\b" % names)
    found: dict[str, list[dict]] = {}
    seen: set[tuple] = set()
    resolved: dict[str, str | None] = {}
    builders: dict[str, list[str]] = {}  # class -> the top-level functions that name it (builders, maybe)
    for path in [*paths, *documents]:
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if path.suffix == ".py" and not (maybe.search(text) and mention.search(text)) and named.search(text):
            # no call of the classes, but a function may name them to build them from a table (`m = globals()[m]`
            # after `if m in {Detect, Segment}`): read for builders only
            _builders(project, path, text, short, wanted, resolved, builders)
            continue
        if not maybe.search(text) or not mention.search(text):
            continue
        if path.suffix == ".py":
            _builders(project, path, text, short, wanted, resolved, builders)
        if path.suffix == ".py":
            module_name, is_package = module_name_for(path)[0], path.name == "__init__.py"
            parsed = [(0, text)]
        else:  # a document's examples: each code block a module of its own, importing what it uses
            module_name, is_package, parsed = "", False, example_blocks(text)
        for offset, code in parsed:
            try:
                tree = ast.parse(code)
            except (SyntaxError, ValueError):
                continue
            bindings = _bindings(tree, module_name, is_package)
            owners = {id(node): f"{module_name}.{top.name}" for top in tree.body if isinstance(top, ast.ClassDef)
                      for node in ast.walk(top) if isinstance(node, ast.Call)} if module_name else {}
            scopes = _scope_values(tree, bindings)
            for call, names, line in _calls(tree, bindings, module_name, is_package):
                qualified = _callee(call.func, names)
                if qualified is None or qualified.rpartition(".")[2] not in short:
                    continue
                if qualified not in resolved:
                    resolved[qualified] = _class_named(project, qualified, wanted)
                target = resolved[qualified]
                owner = owners.get(id(call))
                if target is not None and owner is not None and owner != target \
                        and owner not in hosts.setdefault(target, []):
                    hosts[target].append(owner)
                site = _site_arguments(call, names, scopes.get(id(call)), line)
                if target is None or site is None or (target, repr(site)) in seen:
                    continue
                seen.add((target, repr(site)))
                found.setdefault(target, []).append({**site, "where": f"{path}:{line + offset}"})
    if builders:
        callers = _callers(paths, {function for functions in builders.values() for function in functions})
        for target, functions in builders.items():
            for function in functions:
                for owner in callers.get(function, ()):
                    if owner != target and owner not in hosts.setdefault(target, []):
                        hosts[target].append(owner)
    return found, hosts


def _builders(project, path: Path, text: str, short: set[str], wanted: set[str], resolved: dict,
              builders: dict[str, list[str]]) -> None:
    """The top-level functions of the file that name a class of `wanted` (call it, or name it to build it from a
    table: ultralytics' `parse_model` builds each layer of a model's YAML with `globals()[m](*args)` after testing
    `m is Detect`): a class calling such a function builds the class, so is one of its hosts."""
    parsed = _parsed(path, text)
    if parsed is None:
        return
    tree, module_name, bindings = parsed
    for top in tree.body:
        if not isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        function = f"{module_name}.{top.name}"
        for node in ast.walk(top):
            if not isinstance(node, (ast.Name, ast.Attribute)) or not isinstance(node.ctx, ast.Load):
                continue
            if (node.attr if isinstance(node, ast.Attribute) else node.id) not in short:
                continue
            qualified = _callee(node, bindings)
            if qualified is None:
                continue
            if qualified not in resolved:
                resolved[qualified] = _class_named(project, qualified, wanted)
            target = resolved[qualified]
            if target is not None and function not in builders.setdefault(target, []):
                builders[target].append(function)


def _parsed(path: Path, text: str) -> tuple[ast.Module, str, dict] | None:
    """A Python file's `ast` tree, its module name and what its imports bind; None when it does not parse."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    module_name = module_name_for(path)[0]
    return tree, module_name, _bindings(tree, module_name, path.name == "__init__.py")


def _callers(paths: list[Path], functions: set[str]) -> dict[str, list[str]]:
    """For each qualified function name of `functions`, the top-level classes of `paths` whose own code calls it."""
    short = {name.rpartition(".")[2] for name in functions}
    mention = re.compile(r"\b(?:%s)\s*\(" % "|".join(sorted(map(re.escape, short))))
    callers: dict[str, list[str]] = {}
    for path in paths:
        if path.suffix != ".py":
            continue
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if not mention.search(text):
            continue
        parsed = _parsed(path, text)
        if parsed is None:
            continue
        tree, module_name, bindings = parsed
        for top in tree.body:
            if not isinstance(top, ast.ClassDef):
                continue
            owner = f"{module_name}.{top.name}"
            for node in ast.walk(top):
                if isinstance(node, ast.Call) and (qualified := _callee(node.func, bindings)) in functions \
                        and owner not in callers.setdefault(qualified, []):
                    callers[qualified].append(owner)
    return callers


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


class Scope:
    """The names a function (or the module) binds: `stored`, every name it binds in any way (a function's local
    names, which hide the module's), and `values`, those bound exactly once, by a plain `name = value` statement:
    {name: (value, line)}."""

    def __init__(self, stored: set[str], values: dict[str, tuple[ast.AST, int]]) -> None:
        self.stored = stored
        self.values = values


def _scope_values(tree: ast.AST, bindings: dict[str, str]) -> dict[int, Scope]:
    """The scope of each call of the file's code (by `id`): its innermost function's, or the module's (whose names
    the file's classes, functions and imports bind are `bindings`' and never a value)."""
    scopes: dict[int, Scope] = {}

    def visit(scope_node: ast.AST, module: bool) -> None:
        counts: dict[str, int] = {}
        assigned: dict[str, tuple[ast.AST, int]] = {}
        calls: list[int] = []
        nested: list[ast.AST] = []
        if not module:
            arguments = scope_node.args
            for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                             *filter(None, [arguments.vararg, arguments.kwarg])]:
                counts[argument.arg] = counts.get(argument.arg, 0) + 1
        stack = list(scope_node.body)
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                counts[node.name] = counts.get(node.name, 0) + 1
                nested.append(node)
                stack.extend(node.decorator_list)
                continue
            if isinstance(node, ast.Lambda):
                continue
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                counts[node.id] = counts.get(node.id, 0) + 1
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    bound = alias.asname or alias.name.split(".")[0]
                    counts[bound] = counts.get(bound, 0) + 1
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                for name in node.names:
                    counts[name] = counts.get(name, 0) + 2  # never a value of this scope
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                assigned[node.targets[0].id] = (node.value, node.lineno)
            elif isinstance(node, ast.Call):
                calls.append(id(node))
            stack.extend(ast.iter_child_nodes(node))
        values = {name: value for name, value in assigned.items() if counts.get(name) == 1
                  and not (module and name in bindings)}
        scope = Scope(set() if module else set(counts), values)
        for call in calls:
            scopes[call] = scope
        for node in nested:
            if isinstance(node, ast.ClassDef):
                for statement in node.body:  # a class body's calls: no values of its own are read
                    for inner in ast.walk(statement):
                        if isinstance(inner, ast.Call) and id(inner) not in scopes:
                            scopes[id(inner)] = Scope(set(), {})
                for statement in node.body:
                    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        visit(statement, False)
            else:
                visit(node, False)

    visit(tree, True)
    return scopes


def _site_arguments(call: ast.Call, names: dict[str, str], scope: Scope | None = None, line: int = 0) -> dict | None:
    """{"args": [source], "kwargs": {name: source}} when every argument is a literal or built from what `names`
    binds (then also "refs": {name: qualified name} of the names the sources use), or from a name the call's scope
    binds once, before it, to such a value (then "lets": [[name, source]], in the order to evaluate them), else
    None."""
    refs: dict[str, str] = {}
    lets: dict[str, str] = {}
    local = _Local(scope, line, lets)
    args: list[str] = []
    for argument in call.args:
        if isinstance(argument, ast.Starred) or not _buildable(argument, names, refs, local=local):
            return None
        args.append(ast.unparse(argument))
    kwargs: dict[str, str] = {}
    for keyword in call.keywords:
        if keyword.arg is None or not _buildable(keyword.value, names, refs, local=local):
            return None
        kwargs[keyword.arg] = ast.unparse(keyword.value)
    # a call with no arguments is the defaults, which the child tries first anyway
    if not args and not kwargs:
        return None
    return {"args": args, "kwargs": kwargs, **({"refs": refs} if refs else {}),
            **({"lets": [[name, source] for name, source in lets.items()]} if lets else {})}


class _Local:
    """The values a site may read from its scope: `scope`'s names bound once before `line`; those read go to
    `lets` (a name's own lets first)."""

    def __init__(self, scope: Scope | None, line: int, lets: dict[str, str]) -> None:
        self.scope, self.line, self.lets, self.reading = scope, line, lets, set()

    def hides(self, name: str) -> bool:
        return self.scope is not None and (name in self.scope.stored or name in self.scope.values)

    def read(self, name: str, names: dict[str, str], refs: dict[str, str], depth: int) -> bool:
        """Whether `name` is bound once before the site to a buildable value (recorded in `lets`)."""
        if name in self.lets:
            return True
        value = self.scope.values.get(name) if self.scope is not None else None
        if value is None or value[1] >= self.line or name in self.reading:
            return False
        self.reading.add(name)
        buildable = _buildable(value[0], names, refs, depth + 1, self)
        self.reading.discard(name)
        if buildable:
            self.lets[name] = ast.unparse(value[0])
        return buildable


# How deeply a site's argument may nest calls and containers (`Wrapper(Loss(Inner(1)))`).
_MAX_DEPTH = 4
_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)
_MAX_EXPONENT = 64


def _buildable(node: ast.AST, names: dict[str, str], refs: dict[str, str], depth: int = 0,
               local: _Local | None = None) -> bool:
    """Whether the argument is a literal, a name (or attribute of one) the file imports or defines at its top level
    or (`local`) its scope binds once before the site to such a value, a call of such a name with such arguments,
    a container of such values, or arithmetic of them; the names used go to `refs` (or the local ones to `local.lets`)."""
    if _is_literal(node):
        return True
    if depth >= _MAX_DEPTH:
        return False
    if isinstance(node, (ast.Name, ast.Attribute)):
        root = node
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name):
            return False
        if local is not None and local.hides(root.id):
            return local.read(root.id, names, refs, depth)
        if root.id not in names:
            return False
        refs[root.id] = names[root.id]
        return True
    if isinstance(node, ast.Call):
        return _buildable(node.func, names, refs, depth + 1, local) and all(
            not isinstance(argument, ast.Starred) and _buildable(argument, names, refs, depth + 1, local)
            for argument in node.args) and all(
            keyword.arg is not None and _buildable(keyword.value, names, refs, depth + 1, local)
            for keyword in node.keywords)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(_buildable(element, names, refs, depth + 1, local) for element in node.elts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, _ARITHMETIC):
        # `2**16`, `dim * 4`: arithmetic of such values (a power only of a small literal exponent)
        if isinstance(node.op, ast.Pow) and not (isinstance(node.right, ast.Constant) and type(
                node.right.value) is int and 0 <= node.right.value <= _MAX_EXPONENT):
            return False
        return _buildable(node.left, names, refs, depth + 1, local) and _buildable(
            node.right, names, refs, depth + 1, local)
    if isinstance(node, ast.Dict):
        return all(key is not None and _buildable(key, names, refs, depth + 1, local) for key in node.keys) and all(
            _buildable(value, names, refs, depth + 1, local) for value in node.values)
    return False


def _is_literal(node: ast.AST) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True

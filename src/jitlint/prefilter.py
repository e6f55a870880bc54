"""Which files of a run must be parsed with LibCST up front, decided without LibCST.

A file's findings come from three places: the capture roots in it (for TorchScript: the module classes, whose
`forward`, exported methods and properties, own or inherited, are compiled, and whatever `torch.jit.script` is
applied to), the functions of it that compiled code elsewhere reaches (a helper called from another file's
`forward`), and the rules that look at code outside compiled functions. A file with none of the first and third
kinds need not be parsed before the capture maps are built: if compiled code reaches it, the name that leads there
parses it on demand (as a one-file run reads the modules it imports), and the engine lints it then
(`engine._promote`). So the engine parses up front only the files this module cannot rule out:

- a file whose text holds a word that makes it a candidate: `script` (`@torch.jit.script`, `torch.jit.script(f)`,
  and any alias of them, which an import spells out), each `text_hints` word of the enabled rules that run outside
  compiled code, `noqa` when JIT900 is on;
- a file Python's own parser (`ast`) rejects, or that is not plain readable source (too large, generated, NUL
  bytes, undecodable, too deeply nested): it goes the usual way, so its JIT001-005 finding is the usual one;
- a file with a module-level function that returns a nested function taking a variable signature (the decorators
  JIT632 looks at);
- a file with a top-level class that is an `nn.Module` subclass, decided as `ProjectIndex.is_module_class` decides
  it: the class's bases are qualified with an import table built from `ast` exactly as `ImportTable` builds it
  from LibCST (`tests/test_prefilter.py` compares the two on every file of the repository), and resolved through
  the project index (which parses the files those names lead to, as the capture maps would).

Every enabled rule must be accounted for, or the prefilter is off for the run (`Prefilter.for_run`, `why_off`), so
that a rule added later (on another branch) can cost speed but never findings:

- a rule whose scope is `compiled` or `signature` reports only in functions the capture map holds, and a file
  holding one is parsed (up front or on demand) and linted (`engine._Deferred.reached`);
- a rule that runs outside compiled code (`anywhere`) and declares `text_hints`: the engine runs it only in files
  holding one of those words (`engine._Dispatcher`), with or without the prefilter, and such files are parsed;
- a rule that runs outside compiled code and declares no `text_hints` must declare where it reports
  (`Rule.reports_only_in`) and the exact handlers it had when that was checked (`Rule.checked_handlers`):
  "module-class" rules (their handlers return at once unless the class is a module class, which
  `tests/test_prefilter.py` checks in their source) and "wrapper-factory" rules (the decorator shape above). A
  rule that gains a handler, or a new rule of that kind, turns the prefilter off;
- a rule with its own `begin_file` or `end_file` (which could report anything) must declare, on the class that
  defines them, that they report only what its visits collected (`Rule.file_hooks_report_visits`);
- any capture policy other than TorchScript's (`script`), any other scope, and runs that keep the model for the
  dynamic checker turn it off, as does the environment variable `JITLINT_PREFILTER=0` (for tests and benchmarks
  that compare a run with and without it).

Not exact in one case: a file `ast` accepts but LibCST's parser rejects would, parsed, get a JIT001 finding; left
unparsed (when nothing leads to it), it gets none.
"""

from __future__ import annotations

import ast
import os
import stat
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from jitlint.limits import Limits, generated_marker, structure_problem
from jitlint.names import BUILTIN_NAMES, ImportTable, module_name_for, normalize, resolved
from jitlint.project import ClassInfo, ProjectIndex, dotted_chains, is_torch_module_base
from jitlint.source import decode

ENVIRONMENT = "JITLINT_PREFILTER"  # "0": no prefilter (tests and benchmarks compare runs with and without it)


@dataclass
class Summary:
    """What `ast` says of a file that is not parsed up front: enough to decide whether it holds a module class, and
    to record what its names read (for the cache: `ProjectIndex.reads` takes it as it takes a ModuleInfo)."""

    path: Path
    name: str
    # The dotted names its text spells (`dotted_chains`), all `ProjectIndex.reads` takes from the text: a file
    # that stays deferred is held to the end of the run, and its text would be (4 bytes a character in a file
    # with one emoji, which can be most of a worker's text).
    chains: frozenset[str]
    imports: ImportTable
    classes: dict[str, list[str | None]] = field(default_factory=dict)  # top-level class -> qualified bases
    functions: set[str] = field(default_factory=set)  # top-level function names


class Prefilter:
    def __init__(self, words: tuple[str, ...], wrappers: bool, noqa: bool = False) -> None:
        self.words = words
        self.wrappers = wrappers
        self.noqa = noqa

    @classmethod
    def for_run(cls, rules, policies, enabled: set[str]) -> "Prefilter | None":
        """The prefilter for a run of these rule instances and capture policies, or None where it does not
        apply (see the module's docstring and `why_off`)."""
        if why_off(rules, policies) is not None:
            return None
        words = {"script"}
        wrappers = False
        for rule in rules:
            if rule.scope != "anywhere":
                continue
            if not _known(rule):
                words.update(rule.text_hints)  # (`why_off`: it has some)
            elif rule.reports_only_in == "wrapper-factory":
                wrappers = True
            # else: a module-class-only rule (JIT623's `__init__` hint would add nothing to that)
        return cls(tuple(sorted(words)), wrappers, noqa="JIT900" in enabled)

    def screen(self, path: Path, limits: Limits) -> "Summary | None":
        """None: parse this file up front (the usual way, errors included). A Summary: the file holds no root and
        nothing an outside rule looks at, unless one of its top-level classes is a module class
        (`has_module_class`)."""
        try:
            status = path.stat()
            if not stat.S_ISREG(status.st_mode) or status.st_size > limits.max_file_size:
                return None
            data = path.read_bytes()
        except OSError:
            return None
        if len(data) > limits.max_file_size or b"\x00" in data:
            return None
        try:
            text = decode(data)
        except (UnicodeDecodeError, SyntaxError, LookupError):
            return None
        if self.noqa and "noqa" in text.lower():
            return None
        if any(word in text for word in self.words):
            return None
        if not limits.lint_generated and generated_marker(text) is not None:
            return None
        if structure_problem(text) is not None:
            return None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
            return None
        if self.wrappers and any(_returns_wrapper(statement) for statement in tree.body
                                 if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))):
            return None
        return summarize(path, text, tree)


def _known(rule) -> bool:
    """A rule outside compiled code that declares where it reports, with the handlers it had when that was
    checked."""
    handlers = frozenset((kind, node_type) for kind, node_type, _method in rule.handlers())
    return rule.reports_only_in is not None and rule.checked_handlers == handlers


def _hooks_known(rule) -> bool:
    """Whether the class that defines the rule's `begin_file`/`end_file` declares they report only its visits."""
    from jitlint.rules.base import Rule

    for hook in ("begin_file", "end_file"):
        owner = next(klass for klass in type(rule).__mro__ if hook in klass.__dict__)
        if owner is not Rule and not owner.__dict__.get("file_hooks_report_visits", False):
            return False
    return True


def why_off(rules, policies) -> str | None:
    """Why the prefilter cannot apply to a run of these rule instances and capture policies (None: it can)."""
    if os.environ.get(ENVIRONMENT, "1") == "0":
        return f"{ENVIRONMENT}=0"
    if set(policies) != {"script"}:
        return f"capture policies {sorted(policies)} (the prefilter knows only `script`'s roots)"
    for rule in rules:
        code = rule.code
        if rule.policy != "script":
            return f"{code}: capture policy {rule.policy!r}"
        if not _hooks_known(rule):
            return f"{code}: its own begin_file/end_file, not known to the prefilter"
        if rule.scope in ("compiled", "signature"):
            continue
        if rule.scope != "anywhere":
            return f"{code}: scope {rule.scope!r}"
        if rule.text_hints:
            continue
        if not _known(rule):
            return f"{code}: runs outside compiled code with no text_hints and is not known to the prefilter"
    return None


def _returns_wrapper(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A nested function (directly in the body) with a variable signature: what JIT632 may report (a superset)."""
    for statement in function.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = statement.args
            if args.vararg is not None or args.kwarg is not None or any(d is not None for d in args.kw_defaults):
                return True
    return False


# -- an import table from `ast`, as `ImportTable.from_module` builds it from LibCST ------------------------------
def _dotted(node: ast.AST) -> str | None:
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
    name = _dotted(node)
    if name is None:
        return None
    head, _, rest = name.partition(".")
    if head in table.aliases:
        full = table.aliases[head] + ("." + rest if rest else "")
    elif head in table.local_definitions:
        full = f"{table.module_name}.{name}"
    elif head in BUILTIN_NAMES:
        full = f"builtins.{name}"
    else:
        return None
    return normalize(full)


def _top_level(body):
    """`names._top_level_statements`: module-level statements, inside `if` (all branches) and `try` (the body, the
    handlers, `else` and `finally`)."""
    for statement in body:
        if isinstance(statement, ast.If):
            yield from _top_level(statement.body)
            yield from _top_level(statement.orelse)
        elif isinstance(statement, ast.Try):
            yield from _top_level(statement.body)
            for handler in statement.handlers:
                yield from _top_level(handler.body)
            yield from _top_level(statement.orelse)
            yield from _top_level(statement.finalbody)
        else:
            yield statement


def import_table(tree: ast.Module, module_name: str, is_package: bool) -> ImportTable:
    table = ImportTable(module_name, is_package)
    for statement in _top_level(tree.body):
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            table.local_definitions.add(statement.name)
        elif isinstance(statement, ast.Import):
            for alias in statement.names:
                if alias.asname is not None:
                    table.aliases[alias.asname] = alias.name
                else:
                    top = alias.name.split(".", 1)[0]
                    table.aliases[top] = top
        elif isinstance(statement, ast.ImportFrom):
            base = _resolve_from(table, statement)
            if base is None or any(alias.name == "*" for alias in statement.names):
                continue
            for alias in statement.names:
                bound = alias.asname if alias.asname is not None else alias.name
                table.aliases[bound] = f"{base}.{alias.name}" if base else alias.name
        elif isinstance(statement, (ast.Assign, ast.AnnAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    table.local_definitions.add(target.id)
                    table.aliases.pop(target.id, None)
    return table


def _resolve_from(table: ImportTable, node: ast.ImportFrom) -> str | None:
    module = node.module or ""
    level = node.level or 0
    if level == 0:
        return module
    package_parts = table.module_name.split(".")
    if not table.is_package:
        package_parts = package_parts[:-1]
    if level - 1 > len(package_parts):
        return None
    base_parts = package_parts[: len(package_parts) - (level - 1)]
    if module:
        base_parts.append(module)
    return ".".join(base_parts)


def summarize(path: Path, text: str, tree: ast.Module) -> Summary:
    name, _root = module_name_for(path)
    table = import_table(tree, name, path.name == "__init__.py")
    summary = Summary(path, name, dotted_chains(text), table)
    for statement in tree.body:
        if isinstance(statement, ast.ClassDef):
            summary.classes[statement.name] = [qualify(table, base) for base in statement.bases]
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            summary.functions.add(statement.name)
    return summary


# -- is one of its classes a module class? ----------------------------------------------------------------------
class _Unsure(Exception):
    """The file's own module name leads elsewhere (two files of one name), or the file got parsed meanwhile."""


@dataclass(eq=False)
class _Local:
    name: str
    base_names: list[str | None]


def has_module_class(summary: Summary, project: ProjectIndex) -> bool:
    """Whether `ProjectIndex.is_module_class` holds for a top-level class of the file (True when unsure)."""
    if not any(summary.classes.values()):
        return False  # no bases: no class derives from anything
    key = resolved(summary.path)
    winner = project._linted_paths.get(summary.name)
    if summary.name in project.modules or key in project._by_path or winner is None or resolved(winner) != key:
        return True
    local = {name: _Local(name, bases) for name, bases in summary.classes.items()}
    try:
        for cls in local.values():
            if cls.base_names and _is_module(cls, summary, local, project):
                return True
    except _Unsure:
        return True
    if summary.name in project.modules or key in project._by_path:
        return True  # resolving led back into the file: it is parsed now anyway
    return False


def _resolve_local(qualified: str | None, summary: Summary, local: dict, project: ProjectIndex):
    """`ProjectIndex.resolve_class`, where the file itself is the summary."""
    if not qualified or qualified.startswith(("builtins.", "torch.", "typing.")):
        return None
    module_name, _, attr = qualified.rpartition(".")
    if not module_name:
        return None
    if module_name != summary.name:
        found = project.resolve(qualified)
        if summary.name in project.modules:
            raise _Unsure
        return found if isinstance(found, ClassInfo) else None
    if attr in local:
        return local[attr]
    if attr in summary.functions:
        return None
    target = summary.imports.aliases.get(attr)
    if target is not None and target != qualified:
        found = project.resolve(target, 1)
        if summary.name in project.modules:
            raise _Unsure
        return found if isinstance(found, ClassInfo) else None
    return None


def _is_module(cls: _Local, summary: Summary, local: dict, project: ProjectIndex) -> bool:
    """`is_module_class`: the torch bases of the classes of `ProjectIndex.mro`, in its order and with its cap."""
    order: list = []
    stack: list = [cls]
    while stack:
        current = stack.pop(0)
        if current in order or len(order) > 64:
            continue
        order.append(current)
        if isinstance(current, _Local):
            bases = []
            for base in current.base_names:
                found = _resolve_local(base, summary, local, project)
                if found is not None and found is not current:
                    bases.append(found)
        else:
            bases = list(project.base_classes(current))
        stack[0:0] = bases
    return any(is_torch_module_base(base) for current in order for base in current.base_names
               if base and base.startswith("torch."))

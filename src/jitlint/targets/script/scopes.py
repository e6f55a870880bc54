"""Which names a compiled function can resolve, the way TorchScript's frontend resolves them.

torch's `ir_emitter.cpp` looks a name up in the function's environment (the values bound so far on the path being
emitted, block by block), then in the Python function's globals and closure, then in builtins; a name found
nowhere is "undefined value". Two things make that differ from Python:

- `del x` removes `x` from the environment; a `del` in one branch of an `if` removes it after the `if` too, even
  when that branch returns (the branch environments are merged by what both still define, before early exits are
  handled);
- a comprehension's variable belongs to the comprehension, as in Python 3, and torch has no late binding: a
  name read before anything on the path bound it is undefined, even if the function binds it later.

`unresolved_reads` walks one function body in source order and yields the reads of names that are neither bound
on some path before them (conservatively: a loop body sees every name the body binds, an `if` leaves what either
branch binds), nor a global of the module, nor a builtin. What it cannot see stays silent: modules with
`from x import *` or `globals()`, functions nested in other functions (their closure), names inside `try`,
`match`, lambdas, nested definitions and annotations (torch reports those with other messages).
"""

from __future__ import annotations

import builtins
import re
import typing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

import libcst as cst

from jitlint.facts.syntax import target_names
from jitlint.walk import walk

if TYPE_CHECKING:
    from jitlint.project import ModuleInfo

_MODULE_NAMES = frozenset(
    {"__name__", "__file__", "__doc__", "__spec__", "__loader__", "__package__", "__builtins__", "__path__",
     "__annotations__", "__dict__", "__debug__", "__class__"}
)
# torch's resolution callback falls back to `typing` and builtins (`_jit_internal.createResolutionCallbackFromClosure`)
# and its frontend knows a few names of its own (`warnings.warn` needs no import; verified on 2.13).
BUILTIN_NAMES = (
    frozenset(dir(builtins)) | frozenset(dir(typing)) | _MODULE_NAMES | {"warnings", "rangelist", "_to_tensor"}
)
# Calls whose argument is a type expression torch resolves itself (`Future`, `Tensor` without an import): not read.
_TYPE_ARGUMENT = {"annotate": 0, "cast": 0, "isinstance": 1, "Attribute": 1}
_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


@dataclass(frozen=True)
class UnresolvedRead:
    name: cst.Name
    deleted: bool  # the name was bound, then removed by `del` on a path that reaches the read


class _Bindings(cst.CSTVisitor):
    """Every name a block binds anywhere in it (not inside nested definitions, lambdas or comprehensions, except
    the walrus targets of these comprehensions, which bind in the enclosing function)."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.star_import = False

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self.names.update(target_names(node.target))

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self.names.update(target_names(node.target))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self.names.update(target_names(node.target))

    def visit_For(self, node: cst.For) -> None:
        self.names.update(target_names(node.target))

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None:
            self.names.update(target_names(node.asname.name))

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self.names.update(target_names(node.target))

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if node.name is not None and isinstance(node.name.name, cst.Name):
            self.names.add(node.name.name.value)

    def visit_Global(self, node: cst.Global) -> None:
        self.names.update(item.name.value for item in node.names)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        self.names.update(item.name.value for item in node.names)

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            if alias.asname is not None:
                self.names.update(target_names(alias.asname.name))
            else:
                name = alias.name
                while isinstance(name, cst.Attribute):
                    name = name.value
                if isinstance(name, cst.Name):
                    self.names.add(name.value)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if isinstance(node.names, cst.ImportStar):
            self.star_import = True
            return
        for alias in node.names:
            if alias.asname is not None:
                self.names.update(target_names(alias.asname.name))
            elif isinstance(alias.name, cst.Name):
                self.names.add(alias.name.value)

    def visit_MatchAs(self, node) -> None:
        if getattr(node, "name", None) is not None:
            self.names.add(node.name.value)

    def visit_MatchStar(self, node) -> None:
        if getattr(node, "name", None) is not None:
            self.names.add(node.name.value)

    def visit_MatchMapping(self, node) -> None:
        if getattr(node, "rest", None) is not None:
            self.names.add(node.rest.value)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.names.add(node.name.value)
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        self.names.add(node.name.value)
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        walk(node.value, self)
        return False


def _skip(self, node: cst.CSTNode) -> bool:
    return False


# `visit_<Expression>` hooks that stop a walk at every expression except a walrus. Statements, and the parts of
# statements that bind (targets, `as` names, imports, patterns), are not expressions; inside an expression only a
# walrus binds (a lambda's and a comprehension's variables are their own), and nothing is a statement.
_EXPRESSION_HOOKS = {
    f"visit_{value.__name__}": _skip
    for value in vars(cst).values()
    if isinstance(value, type) and issubclass(value, cst.BaseExpression) and value is not cst.NamedExpr
}


# What `_Bindings` finds in source that holds no `:=` (so no walrus): the same names, without entering expressions.
_StatementBindings = type("_StatementBindings", (_Bindings,), dict(_EXPRESSION_HOOKS))


def bound_in(*nodes: cst.CSTNode | None, walrus: bool = True) -> set[str]:
    """The names bound in these nodes (see `_Bindings`); `walrus=False` when their source has no `:=`."""
    collect = _Bindings() if walrus else _StatementBindings()
    for node in nodes:
        if node is not None:
            walk(node, collect)
    return collect.names


# Keyed by the tree's id, holding the tree so that the id is not reused while the entry lives.
_GLOBALS: dict[int, tuple[cst.Module, frozenset[str] | None]] = {}


def module_globals(module: cst.Module, text: str | None = None) -> frozenset[str] | None:
    """The names a module binds at its top level (in any statement there, conditional or not), and the names its
    functions declare `global`; None when that cannot be known (`from x import *`, `globals()`, `vars()`,
    `locals()`)."""
    cached = _GLOBALS.get(id(module))
    if cached is not None and cached[0] is module:
        return cached[1]
    if text is None:
        text = module.code
    result: frozenset[str] | None
    if "globals()" in text or "vars()" in text or "locals()" in text or "__builtins__" in text:
        result = None
    else:
        collect = _Bindings() if ":=" in text else _StatementBindings()
        for statement in module.body:
            walk(statement, collect)
        if collect.star_import:
            result = None
        elif re.search(r"\bglobal\b", text) is None:  # no `global` statement: skip walking every function
            result = frozenset(collect.names)
        else:
            declared = _GlobalDeclarations()
            walk(module, declared)
            result = frozenset(collect.names | declared.names)
    if len(_GLOBALS) >= 16:
        _GLOBALS.clear()
    _GLOBALS[id(module)] = (module, result)
    return result


class _GlobalDeclarations(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Global(self, node: cst.Global) -> None:
        self.names.update(item.name.value for item in node.names)


for _name, _hook in _EXPRESSION_HOOKS.items():  # a `global` statement is never inside an expression
    setattr(_GlobalDeclarations, _name, _hook)


class _Reads(cst.CSTVisitor):
    """The names an expression (or small statement) reads, in source order, minus comprehension variables; not in
    lambdas, annotations, keyword names or attribute names."""

    def __init__(self) -> None:
        self.names: list[cst.Name] = []
        self.local: list[set[str]] = []  # the variables of the comprehensions being read

    def visit_Name(self, node: cst.Name) -> None:
        if not any(node.value in scope for scope in self.local):
            self.names.append(node)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        walk(node.value, self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        walk(node.value, self)
        return False

    def visit_Call(self, node: cst.Call) -> bool:
        func = node.func
        name = func.attr.value if isinstance(func, cst.Attribute) else func.value if isinstance(func, cst.Name) else ""
        skip = _TYPE_ARGUMENT.get(name)
        walk(func, self)
        for index, arg in enumerate(node.args):
            if index != skip:
                walk(arg.value, self)
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_NamedExpr(self, node: cst.NamedExpr) -> bool:
        walk(node.value, self)  # `(n := v)` binds `n` (torch rejects the walrus itself: JIT112)
        return False

    def visit_Annotation(self, node: cst.Annotation) -> bool:
        return False

    def _comprehension(self, node) -> bool:
        # The first iterable is read outside; the rest inside, with every `for` target bound.
        first = node.for_in
        walk(first.iter, self)
        names: set[str] = set()
        clause = first
        while clause is not None:
            names.update(target_names(clause.target))
            clause = clause.inner_for_in
        self.local.append(names)
        try:
            clause = first
            while clause is not None:
                if clause is not first:
                    walk(clause.iter, self)
                for condition in clause.ifs:
                    walk(condition.test, self)
                clause = clause.inner_for_in
            if isinstance(node, cst.DictComp):
                walk(node.key, self)
                walk(node.value, self)
            else:
                walk(node.elt, self)
        finally:
            self.local.pop()
        return False

    def visit_ListComp(self, node: cst.ListComp) -> bool:
        return self._comprehension(node)

    def visit_SetComp(self, node: cst.SetComp) -> bool:
        return self._comprehension(node)

    def visit_DictComp(self, node: cst.DictComp) -> bool:
        return self._comprehension(node)

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> bool:
        return self._comprehension(node)


def _reads(*nodes: cst.CSTNode | None) -> list[cst.Name]:
    reads = _Reads()
    for node in nodes:
        if node is not None:
            walk(node, reads)
    return reads.names


class _State:
    __slots__ = ("bound", "deleted")

    def __init__(self, bound: set[str], deleted: set[str]) -> None:
        self.bound = bound
        self.deleted = deleted

    def copy(self) -> "_State":
        return _State(set(self.bound), set(self.deleted))

    def bind(self, names) -> None:
        for name in names:
            self.bound.add(name)
            self.deleted.discard(name)


_EXITS = (cst.Return, cst.Raise, cst.Break, cst.Continue)


class _Walk:
    def __init__(self, known: frozenset[str], pruned: set[int], walrus: bool = True) -> None:
        self.known = known
        self.pruned = pruned
        self.walrus = walrus  # whether the source may hold a `:=`
        self.found: list[UnresolvedRead] = []

    def _bound_in(self, *nodes: cst.CSTNode | None) -> set[str]:
        return bound_in(*nodes, walrus=self.walrus)

    def check(self, names: list[cst.Name], state: _State) -> None:
        for name in names:
            value = name.value
            if value in state.deleted:
                self.found.append(UnresolvedRead(name, True))
            elif value not in state.bound and value not in self.known:
                self.found.append(UnresolvedRead(name, False))

    def block(self, statements, state: _State) -> bool:
        for statement in statements:
            if id(statement) in self.pruned:
                return True
            if self.statement(statement, state):
                return True
        return False

    def suite(self, suite, state: _State) -> bool:
        if id(suite) in self.pruned:
            return False
        if isinstance(suite, cst.IndentedBlock):
            return self.block(suite.body, state)
        return self.block([cst.SimpleStatementLine(body=suite.body)], state)

    def statement(self, statement: cst.CSTNode, state: _State) -> bool:
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                self.small(small, state)
                if isinstance(small, _EXITS):
                    return True
            return False
        if isinstance(statement, cst.If):
            return self.if_(statement, state)
        if isinstance(statement, (cst.For, cst.While)):
            self.loop(statement, state)
            return False
        if isinstance(statement, cst.With):
            for item in statement.items:
                self.check(_reads(item.item), state)
                if item.asname is not None:
                    state.bind(target_names(item.asname.name))
            return self.suite(statement.body, state)
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            state.bind([statement.name.value])
            return False
        # try, match and the rest: what they bind counts as bound, what they read is not checked.
        state.bind(self._bound_in(statement))
        return False

    def small(self, small: cst.BaseSmallStatement, state: _State) -> None:
        if isinstance(small, cst.Assign):
            self.check(_reads(small.value), state)
            for target in small.targets:
                self.check(_target_reads(target.target), state)
            state.bind(self._bound_in(small))
        elif isinstance(small, cst.AnnAssign):
            self.check(_reads(small.value), state)
            self.check(_target_reads(small.target), state)
            if small.value is not None:
                state.bind(self._bound_in(small))
        elif isinstance(small, cst.AugAssign):
            self.check(_reads(small.value, small.target), state)
            state.bind(self._bound_in(small))
        elif isinstance(small, cst.Del):
            self.check(_reads(small.target), state)
            for name in target_names(small.target):
                state.bound.discard(name)
                state.deleted.add(name)
        elif isinstance(small, (cst.Global, cst.Nonlocal, cst.Import, cst.ImportFrom)):
            state.bind(self._bound_in(small))
        else:
            self.check(_reads(small), state)
            state.bind(self._bound_in(small))  # walrus targets

    def if_(self, node: cst.If, state: _State) -> bool:
        self.check(_reads(node.test), state)
        state.bind(self._bound_in(node.test))
        body_dead = id(node.body) in self.pruned
        orelse_dead = node.orelse is not None and id(node.orelse) in self.pruned
        if body_dead:
            return self.orelse(node.orelse, state) if node.orelse is not None else False
        if orelse_dead:
            return self.suite(node.body, state)
        body, orelse = state.copy(), state.copy()
        body_left = self.suite(node.body, body)
        orelse_left = self.orelse(node.orelse, orelse) if node.orelse is not None else False
        live = [branch for branch, left in ((body, body_left), (orelse, orelse_left)) if not left]
        # A `del` counts after the `if` even in a branch that leaves: torch merges the environments before it
        # handles early exits (verified on 2.13).
        deleted = body.deleted | orelse.deleted
        if not live:
            state.deleted |= deleted
            return True
        state.bound = set().union(*(branch.bound for branch in live)) - deleted
        state.deleted = deleted
        return False

    def orelse(self, orelse, state: _State) -> bool:
        if isinstance(orelse, cst.If):
            return self.if_(orelse, state)
        return self.suite(orelse.body, state)

    def loop(self, node: cst.For | cst.While, state: _State) -> None:
        if isinstance(node, cst.For):
            self.check(_reads(node.iter), state)
        else:
            self.check(_reads(node.test), state)
        body = state.copy()
        # A later iteration sees what the body binds anywhere: conservatively, so does the first.
        body.bind(self._bound_in(node.body) | (set(target_names(node.target)) if isinstance(node, cst.For) else set()))
        if isinstance(node, cst.While):
            body.bind(self._bound_in(node.test))
        self.suite(node.body, body)
        if node.orelse is not None:
            self.suite(node.orelse.body, body)
        state.bound |= body.bound
        state.deleted = (state.deleted | body.deleted) - (body.bound - state.bound)
        state.bound -= state.deleted


def _target_reads(target: cst.BaseExpression) -> list[cst.Name]:
    """What an assignment target reads: `a[i] = v` reads `a` and `i`, `a.b = v` reads `a`; `a = v` reads nothing."""
    if isinstance(target, cst.Name):
        return []
    if isinstance(target, (cst.Tuple, cst.List)):
        return [name for element in target.elements for name in _target_reads(element.value)]
    if isinstance(target, cst.StarredElement):
        return _target_reads(target.value)
    return _reads(target)


def parameter_names(function: cst.FunctionDef) -> set[str]:
    params = function.params
    names = {param.name.value for param in (*params.posonly_params, *params.params, *params.kwonly_params)}
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            names.add(star.name.value)
    return names


def globals_through_stars(module: "ModuleInfo", source_of: "Callable[[str], ModuleInfo | None]") -> frozenset[str] | None:
    """`module_globals` of a file with `from m import *` statements when every module they read (transitively) is a
    project module: what the file binds itself, and every top-level name of each of those modules that a star import
    may bring in (its literal `__all__`, and its public names however they are bound: a superset, so that no name
    they bind is taken for undefined). None when one is a library module or binds names dynamically
    (`globals()`)."""
    from jitlint.names import star_closure

    own = _own_globals(module)
    if own is None:
        return None
    names = set(own) | set(module.imports.aliases) | module.imports.local_definitions
    for name in star_closure(module.imports, lambda base: getattr(source_of(base), "imports", None)):
        source = source_of(name)
        exported = _own_globals(source) if source is not None else None
        if exported is None:
            return None
        names.update(name for name in exported if not name.startswith("_"))
        names.update(source.imports.all_names or ())
        names.update(name for name in source.imports.aliases if not name.startswith("_"))
    return frozenset(names)


def _own_globals(module: "ModuleInfo") -> frozenset[str] | None:
    """The names a module's top-level statements bind, its star imports aside (None: bound dynamically, or a star
    import the import table does not list, in a nested block)."""
    tree = module.tree
    text = module.text if module.text is not None else tree.code
    if len(re.findall(r"\bimport\s*\*", text)) != len(module.imports.stars) or "globals()" in text or "vars()" in text or "locals()" in text or "__builtins__" in text or re.search(
            r"\bglobal\b", text) is not None:
        return None
    collect = _Bindings() if ":=" in text else _StatementBindings()
    for statement in tree.body:
        walk(statement, collect)
    return frozenset(collect.names)


def unresolved_reads(
    function: cst.FunctionDef, module: cst.Module, pruned: set[int], text: str | None = None,
    known: frozenset[str] | None = None,
) -> list[UnresolvedRead]:
    """The reads of names the function cannot resolve (see the module's docstring); [] when that is unknowable.
    `known`: the module's globals when the caller has them (`globals_through_stars`)."""
    if known is None:
        known = module_globals(module, text)
    if known is None or not isinstance(function.body, cst.IndentedBlock):
        return []
    walker = _Walk(known | BUILTIN_NAMES, pruned, walrus=text is None or ":=" in text)
    walker.block(function.body.body, _State(parameter_names(function), set()))
    return walker.found


def unresolved_reads_with(
    function: cst.FunctionDef, known: frozenset[str], pruned: set[int], text: str | None = None
) -> list[UnresolvedRead]:
    """The reads of names neither bound before them in the function nor in `known` (the names the function's
    resolution callback holds: for a function torch gets through a wrapper, the wrapper's globals and closure), in
    the order `unresolved_reads` walks them."""
    if not isinstance(function.body, cst.IndentedBlock):
        return []
    walker = _Walk(known, pruned, walrus=text is None or ":=" in text)
    walker.block(function.body.body, _State(parameter_names(function), set()))
    return walker.found


def params_of(function: cst.FunctionDef) -> dict[str, cst.Param]:
    """A function's named parameters (positional-only, ordinary, keyword-only) by name."""
    params = function.params
    return {p.name.value: p for p in (*params.posonly_params, *params.params, *params.kwonly_params)}


def called_params(function: cst.FunctionDef) -> frozenset[str]:
    """Names of `function`'s parameters its body calls as `name(...)` (rebound names included: callers filter)."""
    names = set(params_of(function))
    found: set[str] = set()

    class Calls(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Name) and node.func.value in names:
                found.add(node.func.value)

    walk(function.body, Calls())
    return frozenset(found)

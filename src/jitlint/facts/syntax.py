"""Syntax facts: what a piece of code binds and names, and what encloses a node. One implementation for every target
and rule; what each caller counts as a binding is a choice of `kinds`, not a visitor of its own.

- `target_names`: the names an assignment target binds (`a`, `a, (b, *c)`; not `a.b` or `a[i]`).
- `bindings`: every binding node under a node with the target it binds, in source order, for the binding kinds
  asked (`BINDING_FIELDS`, plus `del`, `with ... as`, and nested `def`/`class` names when asked for); `bound_names`
  their names; `binds` whether one of them is a given name; `assigned_names` a function's (all kinds, kept).
- `names_in`: every name spelled under a node; `names_read`: the names an expression reads (not the attribute
  names of `a.b`, not keyword names of a call).
- `enclosing`: the innermost of a list of ancestors of some node types; `path_to`: the nodes from a root down to
  a node; `calls_in`: the calls of a function, not of its nested functions; `returns_in`: its `return` statements.
- `OneScope`: the base of a visitor of one scope's own code, which does not enter nested functions, classes or
  lambdas.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Iterable, Sequence

import libcst as cst

from jitlint.walk import walk

__all__ = ["ASSIGNMENTS", "BINDING_FIELDS", "DEFINITION", "OneScope", "assigned_names", "binds", "calls_in", "bindings",
           "bound_names", "enclosing", "names_in", "names_in_targets", "names_read", "path_to", "returns_in",
           "target_names"]


def target_names(target: cst.BaseExpression) -> set[str]:
    """The names an assignment target binds (`a`, `a, (b, *c)`); not `a.b` or `a[i]`."""
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        return set().union(*(target_names(element.value) for element in target.elements))
    if isinstance(target, cst.StarredElement):
        return target_names(target.value)
    return set()


# The nodes that bind names, and the field of each that holds what it binds: the default kinds of `bindings`.
BINDING_FIELDS: dict[type, str] = {
    cst.AssignTarget: "target",  # `x = ...`, `a, b = ...`
    cst.AnnAssign: "target",  # `x: T = ...`, and `x: T`
    cst.AugAssign: "target",  # `x += ...`
    cst.For: "target",  # `for x in ...:`
    cst.CompFor: "target",  # `[... for x in ...]`: binds in the comprehension's own scope only
    cst.AsName: "name",  # `import m as x`, `with ... as x`, `except E as x`
    cst.NamedExpr: "target",  # `(x := ...)`
}
# The statements that assign a variable (what TorchScript types a variable by): `=`, `x: T = ...`, `+=`, `for`.
ASSIGNMENTS = (cst.AssignTarget, cst.AnnAssign, cst.AugAssign, cst.For)
# A nested definition, as a kind: its name is bound, and what its body binds is not the enclosing function's.
DEFINITION = cst.FunctionDef
# Kinds beyond the default: what each binds (None where the node binds nothing).
_MORE_KINDS: dict[type, Callable[[cst.CSTNode], cst.BaseExpression | None]] = {
    cst.Del: lambda node: node.target,  # `del x` unbinds `x`: a change of what the name holds
    cst.WithItem: lambda node: node.asname.name if node.asname is not None else None,  # `with ... as x` only
    cst.FunctionDef: lambda node: node.name,
}


class _Bindings(cst.CSTVisitor):
    def __init__(self, kinds: Iterable[type], into_functions: bool) -> None:
        self.targets: dict[type, Callable] = {}
        for kind in kinds:
            if kind in BINDING_FIELDS:
                field = BINDING_FIELDS[kind]
                self.targets[kind] = lambda node, field=field: getattr(node, field)
            else:
                self.targets[kind] = _MORE_KINDS[kind]
        self.into_functions = into_functions
        self.found: list[tuple[cst.CSTNode, cst.BaseExpression]] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        target_of = self.targets.get(type(node))
        if target_of is not None:
            target = target_of(node)
            if target is not None:
                self.found.append((node, target))
        return self.into_functions or not isinstance(node, cst.FunctionDef)


def bindings(node: cst.CSTNode, kinds: Iterable[type] = tuple(BINDING_FIELDS), *,
             into_functions: bool = True) -> list[tuple[cst.CSTNode, cst.BaseExpression]]:
    """Every binding under `node` (itself included), in source order, with repeats: the binding node and the target
    it binds (`target_names` gives the names). `kinds`: node types among `BINDING_FIELDS` (default: all of them),
    `cst.Del`, `cst.WithItem` (only the `as` of a `with`, where `cst.AsName` also counts imports and `except`) and
    `DEFINITION` (the name of a nested `def`). Nested functions, lambdas and comprehensions are walked unless
    `into_functions` is False (then a nested `def` is not entered; lambdas and classes are). Leave out
    `cst.CompFor` to skip comprehension variables, which do not rebind a name of the enclosing function."""
    visitor = _Bindings(kinds, into_functions)
    walk(node, visitor)
    return visitor.found


def bound_names(node: cst.CSTNode, kinds: Iterable[type] = tuple(BINDING_FIELDS), *,
                into_functions: bool = True) -> set[str]:
    """The names `bindings` binds."""
    return {name for _binding, target in bindings(node, kinds, into_functions=into_functions)
            for name in target_names(target)}


def binds(node: cst.CSTNode, name: str) -> bool:
    """Whether any binding of the default kinds under `node` binds `name`."""
    return any(name in target_names(target) for _binding, target in bindings(node))


@lru_cache(maxsize=256)
def _assigned_names_cached(node: cst.FunctionDef) -> frozenset[str]:
    return frozenset(bound_names(node.body))


def assigned_names(function: cst.FunctionDef) -> frozenset[str]:
    """Names bound anywhere in a function body by any binding of `BINDING_FIELDS`, comprehension variables
    included."""
    return _assigned_names_cached(function)


def names_in_targets(node: cst.CSTNode, kinds: Iterable[type], *, into_functions: bool = True) -> set[str]:
    """Every name spelled in the targets of the bindings of `kinds` under `node`: what they bind, and also `a` of
    `a.b = ...` and `x`, `i` of `x[i] = ...` (what a statement may change, taken wide)."""
    return {name for _binding, target in bindings(node, kinds, into_functions=into_functions)
            for name in names_in(target)}


class _Names(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found: set[str] = set()

    def visit_Name(self, name: cst.Name) -> None:
        self.found.add(name.value)


def names_in(node: cst.CSTNode) -> set[str]:
    """Every name spelled under `node` (itself included): read, bound, an attribute's name, a keyword's."""
    visitor = _Names()
    walk(node, visitor)
    return visitor.found


class _ReadNames(_Names):
    def visit_Attribute(self, attribute: cst.Attribute) -> bool:
        walk(attribute.value, self)
        return False

    def visit_Arg(self, arg: cst.Arg) -> bool:
        walk(arg.value, self)
        return False


def names_read(node: cst.CSTNode) -> set[str]:
    """The names under `node` other than attribute names (`b` of `a.b`) and keyword names (`k` of `f(k=v)`):
    lambdas included, a conservative over-approximation of what it reads."""
    visitor = _ReadNames()
    walk(node, visitor)
    return visitor.found


def enclosing(ancestors: list[cst.CSTNode], *types: type) -> cst.CSTNode | None:
    """The innermost of `ancestors` (outermost first, as `RuleContext.ancestors`) that is one of `types`."""
    for ancestor in reversed(ancestors):
        if isinstance(ancestor, types):
            return ancestor
    return None


class OneScope(cst.CSTVisitor):
    """A visitor of one scope's own code: nested functions, classes and lambdas, whose code runs elsewhere or later,
    are not entered; `scope`, the function or class a walk starts at, is."""

    scope: cst.CSTNode | None = None

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return node is self.scope

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return node is self.scope

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


class _Returns(OneScope):
    def __init__(self, function: cst.FunctionDef) -> None:
        self.scope = function
        self.found: list[cst.Return] = []

    def visit_Return(self, node: cst.Return) -> None:
        self.found.append(node)


def returns_in(function: cst.FunctionDef) -> list[cst.Return]:
    """The `return` statements of a function, in source order, not those of its nested functions."""
    finder = _Returns(function)
    walk(function, finder)
    return finder.found


class _FindCalls(cst.CSTVisitor):
    def __init__(self, function: cst.FunctionDef) -> None:
        self.function = function
        self.found: list[cst.Call] = []

    def visit_Call(self, node: cst.Call) -> None:
        self.found.append(node)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return node is self.function  # not into nested functions


def calls_in(function: cst.FunctionDef) -> list[cst.Call]:
    """Every call in a function, in source order, not inside nested functions."""
    # The read-only walk: `function.visit` rebuilds every node it passes, and this runs for every subclass of a
    # base with an `__init_subclass__` (in an editor, on every change).
    finder = _FindCalls(function)
    walk(function, finder)
    return finder.found


def path_to(root: cst.CSTNode, target: cst.CSTNode) -> list[cst.CSTNode] | None:
    """The nodes from `root` down to `target`, both included."""
    stack: list[cst.CSTNode] = []
    found: list[cst.CSTNode] | None = None

    class Path(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            nonlocal found
            if found is not None:
                return False
            stack.append(node)
            if node is target:
                found = list(stack)
                return False
            return True

        def on_leave(self, node: cst.CSTNode) -> None:
            if stack and stack[-1] is node:
                stack.pop()

    walk(root, Path())
    return found


class _Contains(cst.CSTVisitor):
    def __init__(self, target: cst.CSTNode) -> None:
        self.target = target
        self.found = False

    def on_visit(self, node: cst.CSTNode) -> bool:
        if node is self.target:
            self.found = True
        return not self.found


def _contains(node: cst.CSTNode, target: cst.CSTNode) -> bool:
    finder = _Contains(target)
    walk(node, finder)
    return finder.found


def reaching_value(function: cst.FunctionDef, statement: cst.Return, name: str) -> cst.BaseExpression | None:
    """The value of `name = value`, a statement of the function's own top-level body, when it is the one
    assignment to `name` that reaches `statement`: the top-level statement holding the return, and every statement
    between the two, bind `name` nowhere (a loop or branch that may re-bind it makes the value unknown: None)."""
    body = list(function.body.body) if isinstance(function.body, cst.IndentedBlock) else []
    holder = next((index for index, top in enumerate(body) if _contains(top, statement)), None)
    if holder is None:
        return None
    if binds(body[holder], name):
        return None
    for top in reversed(body[:holder]):
        if (isinstance(top, cst.SimpleStatementLine) and len(top.body) == 1 and isinstance(top.body[0], cst.Assign)
                and len(top.body[0].targets) == 1 and isinstance(top.body[0].targets[0].target, cst.Name)
                and top.body[0].targets[0].target.value == name):
            return top.body[0].value
        if binds(top, name):
            return None
    return None

def subscript_elements(node: cst.Subscript) -> Sequence[cst.SubscriptElement]:
    """A subscript's indices as the frontend reads them: Python parses `x[(0, 1)]` as `x[0, 1]` (the slice is one
    tuple either way, and `frontend.py: build_Subscript` makes each of its elements an index), where LibCST keeps
    one element holding a parenthesized tuple."""
    elements = node.slice
    if len(elements) == 1 and isinstance(elements[0].slice, cst.Index):
        value = elements[0].slice.value
        if isinstance(value, cst.Tuple) and value.elements and not any(
                isinstance(element, cst.StarredElement) for element in value.elements):
            return [cst.SubscriptElement(cst.Index(element.value)) for element in value.elements]
    return elements

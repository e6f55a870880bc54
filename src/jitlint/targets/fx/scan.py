"""What the tracing model reads from the syntax of a traced function (`jitlint.targets.fx.tracing`): the functions
it defines, the free names of an inner function, its `try` bodies, whether it is a generator, and the names a
module registers (`register_buffer`, `add_module`) or the bool literals passed by keyword."""

from __future__ import annotations

import libcst as cst

from jitlint.facts.flow import Reads
from jitlint.facts.syntax import OneScope, assigned_names
from jitlint.targets.fx.literals import literal_value
from jitlint.walk import walk


class KeywordLiterals(cst.CSTVisitor):
    """The bool literals passed by keyword (`f(flag=True)`, `dict(flag=False)` items), by name, each with what
    receives it: `("call", func)` for a call (`func` the callee expression), `("super", class name)` for
    `super().__init__(...)` in a class's method, None for a dict item."""

    def __init__(self) -> None:
        self.found: dict[str, set] = {}
        self._classes: list[str] = []

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._classes.append(node.name.value)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._classes.pop()

    def visit_Call(self, node: cst.Call) -> None:
        receiver = ("super", self._classes[-1]) if self._classes and is_super_init(node) else ("call", node.func)
        for arg in node.args:
            if arg.keyword is not None:
                constant = literal_value(arg.value)
                if isinstance(constant, bool):
                    self.found.setdefault(arg.keyword.value, set()).add((constant, receiver))

    def visit_DictElement(self, node: cst.DictElement) -> None:
        key, constant = literal_value(node.key), literal_value(node.value)
        if isinstance(key, str) and isinstance(constant, bool):
            self.found.setdefault(key, set()).add((constant, None))


def is_super_init(node: cst.Call) -> bool:
    """`super().__init__(...)` or `super(C, self).__init__(...)`."""
    func = node.func
    return (isinstance(func, cst.Attribute) and func.attr.value == "__init__" and isinstance(func.value, cst.Call)
            and isinstance(func.value.func, cst.Name) and func.value.func.value == "super")


class SuperInitKeywords(OneScope):
    """The keyword arguments an `__init__` passes to `super().__init__(...)` (not those of nested functions)."""

    def __init__(self, root: cst.FunctionDef) -> None:
        self.scope = root
        self.found: list[cst.Arg] = []

    def visit_Call(self, node: cst.Call) -> None:
        if is_super_init(node):
            self.found.extend(arg for arg in node.args if arg.keyword is not None)


class GivenOn(OneScope):
    """The callees of the calls of an `__init__` (not `super().__init__`, not in nested functions) that may
    receive one of its keyword arguments: an argument that reads a name spelt as the keyword or, when the
    `__init__` has no parameter of that name (so its `**kwargs` holds it), a `**` argument or the keyword itself."""

    def __init__(self, root: cst.FunctionDef, keyword: str) -> None:
        self.scope = root
        self.keyword = keyword
        params = root.params
        self.spread = keyword not in {param.name.value for param in (
            *params.posonly_params, *params.params, *params.kwonly_params)}
        self.found: list[cst.BaseExpression] = []

    def visit_Call(self, node: cst.Call) -> None:
        if is_super_init(node):
            return
        for arg in node.args:
            spread = self.spread and (arg.star == "**" or (arg.keyword is not None
                                                           and arg.keyword.value == self.keyword))
            if spread or any(name.value == self.keyword for name in _names(arg.value)):
                self.found.append(node.func)
                return


def _names(node: cst.CSTNode) -> list[cst.Name]:
    collector = _Names()
    walk(node, collector)
    return collector.found


class _Names(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found: list[cst.Name] = []

    def visit_Name(self, node: cst.Name) -> None:
        self.found.append(node)


class _NestedDefinitions(OneScope):
    def __init__(self, root: cst.FunctionDef) -> None:
        self.root = root
        self.found: dict[str, cst.FunctionDef] = {}

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        if node is self.root:
            return True
        self.found.setdefault(node.name.value, node)
        return False


def nested_definitions(function: cst.FunctionDef) -> dict[str, cst.FunctionDef]:
    """The functions a function defines in its body (not those of nested classes), by name."""
    collector = _NestedDefinitions(function)
    walk(function, collector)
    return collector.found


def free_names(function: cst.FunctionDef, enclosing: set[str]) -> list[str]:
    """Names an inner function reads that its enclosing function binds (its free variables there)."""
    own = assigned_names(function) | {p.name.value for p in (*function.params.posonly_params,
                                                              *function.params.params,
                                                              *function.params.kwonly_params)}
    for star in (function.params.star_arg, function.params.star_kwarg):
        if isinstance(star, cst.Param):
            own = own | {star.name.value}
    reads = Reads.of(function.body)
    return sorted({name.value for name in reads.names} & enclosing - own)


class Registrations(cst.CSTVisitor):
    """The names registered by `register_buffer`/`register_parameter`/`add_module`, with their kind."""

    def __init__(self) -> None:
        self.found: dict[str, str] = {}

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        kinds = {"register_buffer": "buffer", "register_parameter": "parameter", "add_module": "module",
                 "register_module": "module"}
        if (isinstance(func, cst.Attribute) and func.attr.value in kinds and node.args
                and isinstance(node.args[0].value, cst.SimpleString)):
            name = node.args[0].value.evaluated_value
            if isinstance(name, str):
                self.found.setdefault(name, kinds[func.attr.value])


class _TryBodies(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found: list[tuple[set[int], list[cst.ExceptHandler]]] = []

    def visit_Try(self, node: cst.Try) -> None:
        if node.handlers:
            inside: set[int] = set()

            class Ids(cst.CSTVisitor):
                def on_visit(self, child: cst.CSTNode) -> bool:
                    inside.add(id(child))
                    return True

            walk(node.body, Ids())
            self.found.append((inside, list(node.handlers)))

    def visit_FunctionDef(self, node) -> bool:
        return True


def try_bodies(function: cst.FunctionDef) -> list[tuple[set[int], list[cst.ExceptHandler]]]:
    collector = _TryBodies()
    walk(function.body, collector)
    return collector.found


class _Yields(OneScope):
    def __init__(self) -> None:
        self.found = False

    def visit_Yield(self, node) -> None:
        self.found = True


def is_generator(function: cst.FunctionDef) -> bool:
    collector = _Yields()
    walk(function.body, collector)
    return collector.found

"""What the tracing model reads from the syntax of a traced function (`jitlint.targets.fx.tracing`): the functions
it defines, the free names of an inner function, its `try` bodies, whether it is a generator, and the names a
module registers (`register_buffer`, `add_module`)."""

from __future__ import annotations

import libcst as cst

from jitlint.facts.flow import Reads
from jitlint.facts.syntax import OneScope, assigned_names
from jitlint.walk import walk


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

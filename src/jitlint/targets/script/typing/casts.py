"""Whether a Python value converts to a TorchScript type the way a module attribute's value does: torch's
`toIValue` (torch/csrc/jit/python/pybind_utils.h), which casts the value `__init__` left on the module to the type of
the attribute's class-level annotation, or fails with "Could not cast attribute '...' to type T".

The casts are pybind11's with conversion: an int or a bool converts to `float`, a bool to `int` and an int to
`bool`; a float never converts to `int`, None converts only to an `Optional`, and no Python literal is a Tensor.
Lists, tuples and dicts convert element by element (an empty list to any `List`). What is not decided here (a class
type, `Any`, a Union, a value the source does not show as a literal) is None: unknown.
"""

from __future__ import annotations

import ast

import libcst as cst

from jitlint.targets.script.typing.annotations import Reader
from jitlint.targets.script.typing.types import BOOL, FLOAT, INT, NONE, STR, TENSOR, Type

__all__ = ["UNKNOWN_VALUE", "literal_python_value", "uncastable_attribute", "value_fits"]

UNKNOWN_VALUE = object()
_EMPTY = cst.Module([])


def literal_python_value(node: cst.BaseExpression):
    """The Python value of a literal display (numbers, strings, None, booleans, lists, tuples, dicts of them), or
    `UNKNOWN_VALUE`."""
    try:
        return ast.literal_eval(_EMPTY.code_for_node(node).strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return UNKNOWN_VALUE


def value_fits(kind: Type | None, value) -> bool | None:
    """Whether `value` casts to `kind` (None: unknown)."""
    if kind is None or value is UNKNOWN_VALUE or isinstance(value, (set, bytes, complex)):
        return None
    if kind == TENSOR:
        return False
    if kind == NONE:
        return value is None
    if kind.name == "Optional":
        return True if value is None else value_fits(kind.args[0], value)
    if value is None:
        return False if kind in (INT, FLOAT, BOOL, STR) or kind.name in ("List", "Tuple", "Dict") else None
    if kind == INT:
        return isinstance(value, int)
    if kind == FLOAT:
        return isinstance(value, (int, float))
    if kind == BOOL:
        return True if isinstance(value, int) else (False if isinstance(value, (str, list, tuple, dict)) else None)
    if kind == STR:
        return isinstance(value, str)
    if kind.name == "List":
        if not isinstance(value, list):
            return False if isinstance(value, (int, float, str, dict)) else None
        return _all(value_fits(kind.args[0], element) for element in value)
    if kind.name == "Tuple":
        if not isinstance(value, tuple):
            return False if isinstance(value, (int, float, str, dict)) else None
        if len(value) != len(kind.args):
            return False
        return _all(value_fits(element_kind, element) for element_kind, element in zip(kind.args, value))
    if kind.name == "Dict":
        if not isinstance(value, dict):
            return False if isinstance(value, (int, float, str, list, tuple)) else None
        return _all(fits for key, item in value.items()
                    for fits in (value_fits(kind.args[0], key), value_fits(kind.args[1], item)))
    return None


def _all(results) -> bool | None:
    """False if one is False, else None if one is unknown, else True."""
    found: bool | None = True
    for result in results:
        if result is False:
            return False
        if result is None:
            found = None
    return found


def uncastable_attribute(project, owners, name: str, compiled_owners) -> Type | None:
    """The class-level annotation of `self.<name>` (for each of the module classes `owners`, which must be all the
    classes the compiled function may belong to) when every value `__init__` assigns it is a literal that does not
    cast to it, and nothing else sets it (`steps: int` with `self.steps = 0.5`): torch fails to build the script
    module. None otherwise."""
    if not owners or len(owners) != len(compiled_owners):
        return None
    kind = None
    for owner in owners:
        info = project.attributes(owner).get(name)
        if (info is None or info.annotation is None or info.final or info.registered or info.filled_in_init
                or info.assigned_in != {"__init__"} or not info.init_values):
            return None
        kind = Reader(info.annotation_imports or owner.module.imports, project).read(info.annotation)
        if any(value_fits(kind, literal_python_value(value.node)) is not False for value in info.init_values):
            return None
    return kind

"""A class's methods as the project index keeps them, and the addresses that name a function or a class across
processes.

The index keeps the last `def` of each name of a class body (what the name is bound to), except that a property is
made of several: `@<name>.setter` (or `.deleter`) rebinds the name to a property holding the getter too, and torch
compiles both its getter and its setter (`torch/jit/frontend.py: get_class_properties`). The method such a `def`
rebinds is kept as its `shadows`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jitlint.project import ClassInfo, FunctionInfo


def add_method(methods: dict[str, FunctionInfo], method: FunctionInfo) -> None:
    """Index a class's `def` in `methods`, keeping the one a property's `@<name>.setter` (or `.deleter`) rebinds as
    its `shadows`."""
    earlier = methods.get(method.name)
    if earlier is not None and any(name.startswith(f"{method.name}.") for name in method.decorators):
        method.shadows = earlier
    methods[method.name] = method


def shadowed_by(method: FunctionInfo | None, back: int = 0) -> FunctionInfo | None:
    """The method `back` steps along `shadows` from `method` (a class's last `def` of a name)."""
    for _ in range(back):
        method = method.shadows if method is not None else None
    return method


# What identifies a function or a class across processes: (module name, file, class name or None, name), and for a
# property accessor a later `def` rebinds, how many `shadows` back from the class's method it is.
Address = tuple


def _names(parts) -> bool:
    return all(part is None or isinstance(part, str) for part in parts)


def is_function_address(value) -> bool:
    """Whether `value` (a tuple, or a list as JSON gives it back) has the shape `function_address` gives: four names
    (None or strings), then, for an accessor a later `def` rebinds, its depth (a positive int)."""
    if not isinstance(value, (list, tuple)) or len(value) not in (4, 5):
        return False
    if len(value) == 5 and not (type(value[4]) is int and value[4] > 0):
        return False
    return _names(value[:4])


def is_class_address(value) -> bool:
    """Whether `value` has the shape `class_address` gives: three names (None or strings)."""
    return isinstance(value, (list, tuple)) and len(value) == 3 and _names(value)


def function_address(function: FunctionInfo) -> Address:
    address = (function.module.name, str(function.module.path), function.cls.name if function.cls else None,
               function.name)
    last = function.cls.methods.get(function.name) if function.cls is not None else function
    back = 0
    while last is not None and last is not function:
        last, back = last.shadows, back + 1
    return (*address, back) if back and last is not None else address


def class_address(cls: ClassInfo) -> Address:
    return (cls.module.name, str(cls.module.path), cls.name)

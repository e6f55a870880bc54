"""Which calls in a compiled function torch types by the callee alone: what a stand-in passed to such a call cannot
change (`confirm_leave_out.computed_from`). Standard library and torch only: loaded by path in the user's interpreter."""

from __future__ import annotations

import inspect


def typed_by_itself(function):
    """A test of a call in `function` (a live function, or a method of a class of its module): whether torch types its
    result from the callee's own signature and body, not from the arguments the call passes. So it is for a plain
    Python function the function's module binds to the called name, or a method of the function's class called on
    `self` (torch compiles each from its own signature: parameters typed by their annotations, else Tensors), unless
    torch picks among several of its definitions by the arguments (an `@torch.jit._overload`, a boolean dispatch) or
    maps it to a builtin operator (`math.floor`, `F.relu`: an operator's result may follow its arguments' types)."""
    import ast

    from torch import _jit_internal
    from torch.jit import _builtins

    own = inspect.unwrap(function)
    scope = getattr(own, "__globals__", {})
    owner = None
    path = getattr(own, "__qualname__", "").split(".")
    if len(path) >= 2 and "<locals>" not in path:
        owner = scope.get(path[0])
        for part in path[1:-1]:
            owner = getattr(owner, part, None)

    def plain(value) -> bool:
        if not inspect.isfunction(value):
            return False
        try:
            if value in _jit_internal.boolean_dispatched or _builtins._find_builtin(value) is not None:
                return False
            return not _jit_internal._get_fn_overloads(_jit_internal._qualified_name(value))
        except Exception:  # a function torch cannot name or look up: not known to be typed by itself
            return False

    def test(call) -> bool:
        func = call.func
        if isinstance(func, ast.Name):
            return plain(scope.get(func.id))
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self" \
                and inspect.isclass(owner):
            return plain(inspect.getattr_static(owner, func.attr, None))
        return False

    return test

"""`jitlint.facts.signature.passed_to`: which parameter each argument of a call binds, as Python binds it."""

from __future__ import annotations

import libcst as cst
import pytest

from jitlint.facts.signature import passed_to


def _bound(signature: str, call: str, bound: bool = False) -> dict[str, str]:
    function = cst.parse_module(f"def f({signature}):\n    pass\n").body[0]
    node = cst.parse_expression(call)
    return {name: cst.Module([]).code_for_node(node.args[index].value)
            for name, index in passed_to(function, node, bound).items()}


@pytest.mark.parametrize(("signature", "call", "bound", "expected"), [
    ("a, b, c", "f(1, 2, 3)", False, {"a": "1", "b": "2", "c": "3"}),
    ("self, a, b", "o.f(1, 2)", True, {"a": "1", "b": "2"}),
    # keywords name their parameter, in any order
    ("a, b, c", "f(1, c=3, b=2)", False, {"a": "1", "b": "2", "c": "3"}),
    ("a, *, k=1", "f(1, k=2)", False, {"a": "1", "k": "2"}),
    # after `*xs` the positions are unknown; keywords are still known
    ("a, b, c", "f(*xs, 2, 3)", False, {}),
    ("a, b, c", "f(1, *xs, 3)", False, {"a": "1"}),
    ("a, b, c", "f(*xs, c=3)", False, {"c": "3"}),
    ("self, a, b", "o.f(*xs, b=2)", True, {"b": "2"}),
    # `**d` reaches no parameter the source shows, and does not shift positions
    ("a, b", "f(1, **d)", False, {"a": "1"}),
    ("a, b", "f(**d, b=2)", False, {"b": "2"}),
    # a positional-only parameter cannot be named; a bound `self` is not a keyword; unknown names go to **kwargs
    ("a, /, b", "f(a=1, b=2)", False, {"b": "2"}),
    ("self, a", "o.f(self=1, a=2)", True, {"a": "2"}),
    ("a, **kwargs", "f(1, z=2)", False, {"a": "1"}),
    # more positional arguments than parameters: those go to *args
    ("a, *args", "f(1, 2, 3)", False, {"a": "1"}),
])
def test_arguments_bind_parameters_as_python_binds_them(signature, call, bound, expected):
    assert _bound(signature, call, bound) == expected

"""JIT203's bare `tuple`/`list` element types: what `try_ann_to_type` (torch/jit/annotations.py) cannot resolve.

`try_ann_to_type` resolves the element types of `Optional`, `Union`, `Tuple` and `Dict` itself, and a bare `tuple`
or `list` is no type to it: `Optional[tuple]` and `Union[T, list]` fail with "could not be resolved",
`Tuple[int, tuple]` with "Can not create tuple with None type" (no line), `Dict[str, list]` with "Unknown type
annotation". A bare one is a type at the top of an annotation, as a member of `A | B`, and in a `List[...]` that is
the whole annotation (torch then resolves the whole annotation another way); a `List[tuple]` nested in another
constructor is resolved element by element and fails too. Verified on torch 2.13.
"""

from __future__ import annotations

import libcst as cst

from jitlint.rules.base import RuleContext

_NO_BARE = frozenset({"typing.Tuple", "builtins.tuple", "typing.Optional", "typing_extensions.Optional",
                      "typing.Union", "typing_extensions.Union", "typing.Dict", "builtins.dict"})
_LISTS = frozenset({"typing.List", "builtins.list"})


def bare_element(node: cst.BaseExpression, ctx: RuleContext, top: bool) -> str | None:
    """`bare:<tuple|list>:<constructor>` for the first bare element type torch cannot resolve in a signature's
    annotation, None when there is none."""
    if not isinstance(node, cst.Subscript):
        return None
    outer = ctx.qualify(node.value) or ""
    is_list = outer in _LISTS
    items = [element.slice.value for element in node.slice if isinstance(element.slice, cst.Index)]
    if outer in _NO_BARE or (is_list and not top):
        for item in items:
            bare = ctx.qualify(item) if isinstance(item, cst.Name) else None
            if bare in ("builtins.tuple", "builtins.list"):
                return f"bare:{item.value}:{outer.rsplit('.', 1)[-1]}"
    if outer in _NO_BARE or is_list:
        for item in items:
            found = bare_element(item, ctx, top=False)
            if found:
                return found
    return None


def bare_message(problem: str) -> str:
    _, bare, outer = problem.split(":")
    said = {"Tuple": "Can not create tuple with None type", "tuple": "Can not create tuple with None type",
            "Dict": f"Unknown type annotation: '<class '{bare}'>'", "dict": f"Unknown type annotation: '<class '{bare}'>'",
            "List": "could not be resolved", "list": "could not be resolved"}.get(
        outer, f"could not be resolved because <class '{bare}'> could not be resolved")
    return (f"a bare `{bare}` inside `{outer}[...]` is no type TorchScript can resolve (torch: '{said}'); "
            f"give its element types (`{'Tuple[int, int]' if bare == 'tuple' else 'List[int]'}`)")

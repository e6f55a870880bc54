"""Tuples of values in the data-dependence fact (`jitlint.facts.datadep`), for the policies that keep them
(`DatadepPolicy.tuple_kinds`): a tuple or list display `(h, w)`, `[t, h, w]` has the kinds of its elements, as a
Python tuple of kinds (`("size", "size")`), so that sizes carried in a tuple or list, passed in one, returned in one
(`return x, (h, w)`) and unpacked (`h, w = hw`) keep what they are. A display none of whose elements is known is
unknown (None). (A list changed in place later keeps the kinds of its display.)
"""

from __future__ import annotations

import libcst as cst


def is_tuple(kind) -> bool:
    return isinstance(kind, tuple)


def flat(kinds) -> set:
    """The kinds of values, the elements of tuples among them in their place (what a comparison or `min` reads)."""
    found: set = set()
    for kind in kinds:
        if isinstance(kind, tuple):
            found |= flat(kind)
        else:
            found.add(kind)
    return found


def display(kinds: list) -> tuple | None:
    """The kind of a tuple display whose elements have these kinds."""
    return tuple(kinds) if any(kind is not None for kind in kinds) else None


def concatenated(left, right) -> tuple | None:
    """`left + right` of two tuples."""
    return left + right if isinstance(left, tuple) and isinstance(right, tuple) else None


def _literal_index(node: cst.BaseExpression) -> int | None:
    if isinstance(node, cst.Integer):
        return int(node.evaluated_value)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus) and isinstance(
            node.expression, cst.Integer):
        return -int(node.expression.evaluated_value)
    return None


def item(kind: tuple, subscript: cst.Subscript):
    """`t[i]` (one element) or `t[a:b]` (a tuple) of a tuple of kind `kind`, with literal indices; otherwise the
    elements' kind when they all have one, else None."""
    if len(subscript.slice) == 1:
        element = subscript.slice[0].slice
        if isinstance(element, cst.Index):
            index = _literal_index(element.value)
            if index is not None and -len(kind) <= index < len(kind):
                return kind[index]
        elif isinstance(element, cst.Slice) and element.step is None:
            bounds = [None if part is None else _literal_index(part) for part in (element.lower, element.upper)]
            if all(bound is not None or part is None for bound, part in zip(bounds, (element.lower, element.upper))):
                return display(list(kind[bounds[0]:bounds[1]]))
            return None
    return same(kind)


def same(kind: tuple):
    """The kind every element of a tuple has, or None."""
    kinds = set(kind)
    return next(iter(kinds)) if len(kinds) == 1 else None


def unpacked(kind: tuple, targets: list) -> list | None:
    """The kind each target of `a, *b, c = t` gets from a tuple of kind `kind` (a starred target: None), or None
    when the lengths do not fit."""
    starred = [index for index, element in enumerate(targets) if isinstance(element, cst.StarredElement)]
    if not starred:
        return list(kind) if len(kind) == len(targets) else None
    if len(starred) > 1 or len(targets) - 1 > len(kind):
        return None
    at = starred[0]
    after = len(targets) - at - 1
    return [*kind[:at], None, *(kind[len(kind) - after:] if after else ())]


def may_join(first, second, keep: frozenset):
    """The join of two kinds at a merge of paths for a policy that reports what *may* reach a place: equal kinds,
    or a kind of `keep` joined with an unknown value keeps that kind (on the paths where it is one, what reads it
    is affected); tuples element by element."""
    if first == second:
        return first
    if isinstance(first, tuple) and isinstance(second, tuple):
        if len(first) != len(second):
            return None
        return display([may_join(a, b, keep) for a, b in zip(first, second)])
    if first is None or second is None:
        known = second if first is None else first
        if isinstance(known, tuple):
            return display([may_join(element, None, keep) for element in known])
        return known if known in keep else None
    return None


def spread_display(target: cst.BaseExpression, value: cst.BaseExpression, kind_of, element_of) -> list | None:
    """The kind each name of a tuple target gets from a display with one starred element (`h, w, k =
    *x.shape[-2:], self.k`), whose items fill the places the other elements leave: a tuple's own kinds when its
    length fits, else `element_of` the kind it unpacks. `kind_of` gives an expression's kind (every element is read
    before any name is bound). None for any other target or value."""
    if not (isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List))):
        return None
    names = list(target.elements)
    starred = [index for index, element in enumerate(value.elements) if isinstance(element, cst.StarredElement)]
    if len(starred) != 1 or any(isinstance(element, cst.StarredElement) for element in names):
        return None
    width = len(names) - (len(value.elements) - 1)
    if width < 0:
        return None
    kinds = [kind_of(element.value) for element in value.elements]
    at = starred[0]
    if isinstance(kinds[at], tuple):
        if len(kinds[at]) != width:
            return None
        middle = list(kinds[at])
    else:
        middle = [element_of(kinds[at])] * width
    return [*kinds[:at], *middle, *kinds[at + 1:]]

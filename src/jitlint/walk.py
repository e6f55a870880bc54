"""A read-only traversal of LibCST trees, several times faster than `node.visit(visitor)`.

LibCST's `visit` rebuilds every node it passes (a dataclass construction with validation per node, even for a
visitor that changes nothing) and visits every piece of whitespace, comma and parenthesis. jitlint's visitors only
read the tree and never look at that trivia, so `walk` calls the same `on_visit`/`on_leave` hooks in the same
source order, reading each node's children straight from its fields and skipping the trivia fields.

The order of a node's fields is the order LibCST's own `_visit_and_replace_children` visits them in (read once per
node class from LibCST's source), so a visitor sees what it would see under `node.visit`, minus the trivia.
`tests/test_walk.py` checks that against LibCST on real files.
"""

from __future__ import annotations

import inspect
import re

import libcst as cst

# Fields that hold only whitespace, comments, punctuation, operators and keywords' spacing.
_TRIVIA_FIELD = re.compile(
    r"whitespace.*|leading_lines|lines_after_decorators|header|footer|lpar|rpar|lbrace|rbrace|lbracket|rbracket"
    r"|comma|trailing_comma|semicolon|colon|first_colon|second_colon|equal|dot|operator|asynchronous"
    r"|trailing_whitespace|newline|empty_lines|comment|leading_whitespace|first_line|last_line|posonly_ind|relative"
)
_VISITED_FIELD = re.compile(r'visit_\w+\(\s*self,\s*"(\w+)"')

# The node types `walk` never reaches (what the trivia fields hold); used by the tests to compare with LibCST.
TRIVIA_TYPES: tuple[type, ...] = (
    cst.BaseParenthesizableWhitespace, cst.TrailingWhitespace, cst.Newline, cst.Comment, cst.EmptyLine,
    cst.LeftParen, cst.RightParen, cst.LeftSquareBracket, cst.RightSquareBracket, cst.LeftCurlyBrace,
    cst.RightCurlyBrace, cst.Comma, cst.Semicolon, cst.Colon, cst.Dot, cst.AssignEqual, cst.BaseBinaryOp,
    cst.BaseUnaryOp, cst.BaseBooleanOp, cst.BaseCompOp, cst.BaseAugOp, cst.Asynchronous, cst.ParamSlash,
)

_FIELDS: dict[type, tuple[str, ...]] = {}


def child_fields(cls: type) -> tuple[str, ...]:
    """The non-trivia fields of a node class, in LibCST's visiting order."""
    try:
        return _FIELDS[cls]
    except KeyError:
        pass
    names: list[str] = []
    for klass in cls.__mro__:
        method = klass.__dict__.get("_visit_and_replace_children")
        if method is not None:
            names = _VISITED_FIELD.findall(inspect.getsource(method))
            break
    fields = tuple(dict.fromkeys(name for name in names if not _TRIVIA_FIELD.fullmatch(name)))
    _FIELDS[cls] = fields
    return fields


def walk(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """Call `visitor.on_visit`/`on_leave` for `node` and its non-trivia descendants, in source order; children are
    skipped when `on_visit` returns False, as under `node.visit(visitor)`. The tree is not copied."""
    if visitor.on_visit(node):
        fields = _FIELDS.get(type(node))
        if fields is None:
            fields = child_fields(type(node))
        for name in fields:
            value = getattr(node, name)
            if isinstance(value, cst.CSTNode):
                walk(value, visitor)
            elif type(value) is tuple or type(value) is list:
                for child in value:
                    if isinstance(child, cst.CSTNode):
                        walk(child, visitor)
    visitor.on_leave(node)

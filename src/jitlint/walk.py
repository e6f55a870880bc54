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


# type -> whether it is a node class. `isinstance(value, cst.CSTNode)` goes through `ABCMeta.__instancecheck__`
# (a Python call) for every field of every node; the types a tree holds are few, so each is asked once.
_IS_NODE: dict[type, bool] = {}


def _is_node_type(kind: type) -> bool:
    result = _IS_NODE[kind] = issubclass(kind, cst.CSTNode)
    return result


_PLAIN_VISIT = cst.CSTVisitor.on_visit
_PLAIN_LEAVE = cst.CSTVisitor.on_leave


def _hook(visitor_class: type, name: str) -> str | None:
    """`name` (`visit_Name`, ...) when `CSTVisitor.on_visit`/`on_leave` would call something that does something;
    None for LibCST's no-op stubs (they return None: visit the children, do nothing)."""
    found = getattr(visitor_class, name, None)
    return None if found is None or getattr(found, "_is_no_op", False) else name


def _hooks(visitor_class: type) -> dict[type, tuple]:
    """Per node class: (visit hook name, leave hook name, child fields), for a visitor class using LibCST's own
    `on_visit`/`on_leave`; kept on the class (a visitor class defined in a function takes its table with it)."""
    table = visitor_class.__dict__.get("_jitlint_walk_hooks")
    if table is None:
        table = {}
        visitor_class._jitlint_walk_hooks = table
    return table


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """`node`'s non-trivia children in source order: `node.children` without the whitespace, commas and
    parentheses, read from the fields instead of rebuilding the node (LibCST's `children` runs a visitor)."""
    found: list[cst.CSTNode] = []
    fields = _FIELDS.get(type(node))
    if fields is None:
        fields = child_fields(type(node))
    for name in fields:
        value = getattr(node, name)
        kind = type(value)
        if kind is tuple or kind is list:
            for child in value:
                is_node = _IS_NODE.get(type(child))
                if is_node or (is_node is None and _is_node_type(type(child))):
                    found.append(child)
        else:
            is_node = _IS_NODE.get(kind)
            if is_node or (is_node is None and _is_node_type(kind)):
                found.append(value)
    return found


def walk(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    """Call `visitor.on_visit`/`on_leave` for `node` and its non-trivia descendants, in source order; children are
    skipped when `on_visit` returns False, as under `node.visit(visitor)`. The tree is not copied.

    A visitor that keeps LibCST's `on_visit`/`on_leave` gets its `visit_<Node>`/`leave_<Node>` methods called
    directly (which exist is looked up once per visitor class and node class; LibCST's no-op stubs are skipped);
    one that overrides them gets them called for every node."""
    kind = type(visitor)
    if kind.on_visit is _PLAIN_VISIT and kind.on_leave is _PLAIN_LEAVE:
        _walk_hooks(node, visitor, _hooks(kind))
    else:
        _walk(node, visitor)


def _walk(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    if visitor.on_visit(node):
        fields = _FIELDS.get(type(node))
        if fields is None:
            fields = child_fields(type(node))
        for name in fields:
            value = getattr(node, name)
            kind = type(value)
            if kind is tuple or kind is list:
                for child in value:
                    is_node = _IS_NODE.get(type(child))
                    if is_node or (is_node is None and _is_node_type(type(child))):
                        _walk(child, visitor)
            else:
                is_node = _IS_NODE.get(kind)
                if is_node or (is_node is None and _is_node_type(kind)):
                    _walk(value, visitor)
    visitor.on_leave(node)


def _walk_hooks(node: cst.CSTNode, visitor: cst.CSTVisitor, hooks: dict[type, tuple]) -> None:
    entry = hooks.get(type(node))
    if entry is None:
        kind = type(node)
        entry = hooks[kind] = (
            _hook(type(visitor), f"visit_{kind.__name__}"),
            _hook(type(visitor), f"leave_{kind.__name__}"),
            _FIELDS.get(kind) or child_fields(kind),
        )
    visit, leave, fields = entry
    if visit is None or getattr(visitor, visit)(node) is not False:
        for name in fields:
            value = getattr(node, name)
            kind = type(value)
            if kind is tuple or kind is list:
                for child in value:
                    is_node = _IS_NODE.get(type(child))
                    if is_node or (is_node is None and _is_node_type(type(child))):
                        _walk_hooks(child, visitor, hooks)
            else:
                is_node = _IS_NODE.get(kind)
                if is_node or (is_node is None and _is_node_type(kind)):
                    _walk_hooks(value, visitor, hooks)
    if leave is not None:
        getattr(visitor, leave)(node)

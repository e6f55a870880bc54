"""Shared layout nodes: parse with one instance of each distinct piece of whitespace, comma or operator.

LibCST's native parser builds every node by looking its class up on the `libcst` package. While `parse_module`
runs here, the classes of the nodes that hold only layout (whitespace, newlines, commas, dots, brackets,
operators, all of which jitlint's walk skips) are swapped for factories that return one shared, already
validated instance per distinct content. In typical model code a large share of all nodes are `SimpleWhitespace`;
sharing the layout nodes cuts the memory of the parsed trees by about a quarter, and the parse time stays within
its noise (bench/records/2026-11-24-figures-behind-code-choices.md).

LibCST nodes are immutable, so a shared node is as good as a copy for reading, printing (`Module.code`) and
positions of every other node. What sharing changes: a layout node has one position (the last one recorded) and
one parent, so nothing may ask for either: a finding or fix edit on a shared node raises (`rules/base.py`), and
jitlint reports and fixes statements, expressions and names.

The swap is seen by the whole process: while a parse runs, another thread's `isinstance(node, cst.Not)` gets a
factory, not a class, and raises. Whatever lints in threads must lint one file set at a time (the editor server
runs every lint on one thread, `server.py`).

The names are built through a factory too, which interns their text: the parser makes a new string for every
occurrence of `self` or `x`, and a string costs about as much as the `Name` node that holds it, so interning cuts
the trees' memory further. A `Name` node itself is never shared:
findings point at names.

If a LibCST release stops building nodes this way, the factories are simply never called; if one calls them in
an unexpected way (positional arguments, unknown values), they build a fresh node as usual.
"""

from __future__ import annotations

import functools
import sys
import threading
from typing import Callable

import libcst as cst

_SIMPLE = (str, bool, type(None))
MAX_SHARED = 4096  # distinct instances kept per class; beyond that (pathological files) nodes are built as usual

_LAYOUT_NAMES = (
    "SimpleWhitespace", "ParenthesizedWhitespace", "Newline", "TrailingWhitespace", "EmptyLine", "Comma", "Dot",
    "AssignEqual", "Colon", "Semicolon", "LeftParen", "RightParen", "LeftSquareBracket", "RightSquareBracket",
    "LeftCurlyBrace", "RightCurlyBrace", "ImportStar",
)
_OPERATOR_BASES = (cst.BaseBinaryOp, cst.BaseBooleanOp, cst.BaseCompOp, cst.BaseUnaryOp, cst.BaseAugOp)


def layout_classes() -> dict[str, type]:
    """The `libcst` names of the node classes that carry nothing but layout and fixed tokens."""
    classes = {name: getattr(cst, name) for name in _LAYOUT_NAMES if isinstance(getattr(cst, name, None), type)}
    for name in dir(cst):
        value = getattr(cst, name)
        if isinstance(value, type) and issubclass(value, _OPERATOR_BASES) and not name.startswith("Base"):
            classes[name] = value
    return classes


_CLASSES = layout_classes()
_SHARED_IDS: set[int] = set()  # ids of the shared instances (kept alive by the caches below)
_CACHES: dict[str, dict[tuple, cst.CSTNode]] = {name: {} for name in _CLASSES}
_LOCK = threading.Lock()


def _factory(cls: type, cache: dict[tuple, cst.CSTNode]) -> Callable[..., cst.CSTNode]:
    def build(*args, **fields):
        if args:
            return cls(*args, **fields)
        key = []
        for name, value in fields.items():
            if isinstance(value, _SIMPLE):
                key.append((name, value))
            elif id(value) in _SHARED_IDS:
                key.append((name, id(value)))
            elif type(value) is tuple and all(id(item) in _SHARED_IDS for item in value):
                key.append((name, tuple(map(id, value))))  # `empty_lines`: none, or blank lines without comments
            else:
                return cls(**fields)  # holds a node that is not shared (a comment, or whitespace around one)
        key = tuple(key)
        node = cache.get(key)
        if node is None:
            node = cls(**fields)
            if len(cache) < MAX_SHARED:
                cache[key] = node
                _SHARED_IDS.add(id(node))
        return node

    return build


def _interning(cls: type) -> Callable[..., cst.CSTNode]:
    intern = sys.intern

    def build(*args, **fields):
        value = fields.get("value")
        if type(value) is str:
            fields["value"] = intern(value)
        return cls(*args, **fields)

    return build


_FACTORIES = {name: _factory(cls, _CACHES[name]) for name, cls in _CLASSES.items()}
_INTERNED = {"Name": cst.Name}
_FACTORIES.update({name: _interning(cls) for name, cls in _INTERNED.items()})
_CLASSES.update(_INTERNED)


def is_shared(node: object) -> bool:
    """Whether `node` is one of the shared layout instances (which have no single position or parent)."""
    return id(node) in _SHARED_IDS


class Parses:
    """What this process parsed with LibCST: whole files (by path, with how many times each) and pieces of files
    whose index came from their summary (`jitlint.summary`: a method, a class, a top-level statement), by kind."""

    def __init__(self) -> None:
        self.files: dict[str, int] = {}
        self.file_bytes = 0
        self.pieces: dict[str, int] = {}
        self.piece_bytes = 0

    def snapshot(self) -> dict:
        return {"files": dict(self.files), "file_bytes": self.file_bytes, "pieces": dict(self.pieces),
                "piece_bytes": self.piece_bytes}

    def reset(self) -> None:
        self.__init__()


PARSES = Parses()


def parse_module(text: str, path=None, snippet: str | None = None) -> cst.Module:
    """`libcst.parse_module`, with layout nodes shared. The `libcst` package is restored before returning. `path`: the
    file whose whole text this is; `snippet`: what kind of piece of a file it is (counted in `PARSES`)."""
    if snippet is not None:
        PARSES.pieces[snippet] = PARSES.pieces.get(snippet, 0) + 1
        PARSES.piece_bytes += len(text)
    else:
        key = str(path) if path is not None else "<text>"
        PARSES.files[key] = PARSES.files.get(key, 0) + 1
        PARSES.file_bytes += len(text)
    with _LOCK:
        for name, factory in _FACTORIES.items():
            setattr(cst, name, factory)
        try:
            return cst.parse_module(text)
        finally:
            for name, cls in _CLASSES.items():
                setattr(cst, name, cls)


@functools.lru_cache(maxsize=None)
def _blank(indent: str, newline: str) -> cst.Module:
    return cst.Module(body=[], default_indent=indent, default_newline=newline)


def rendering(module) -> cst.Module:
    """What renders a node of `module` (`code_for_node`, `default_indent`): its tree where this process parsed the
    file, and otherwise an empty module with the indentation and newline its summary found, which is all that
    `code_for_node` reads of a tree: rendering a node of another worker's file does not parse that file."""
    found = getattr(module, "layout", None)
    if found is not None and not module.parsed:
        return _blank(*found)
    return module.tree

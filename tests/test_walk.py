"""`walk` must show visitors the same nodes, in the same order, as LibCST's own `visit`, minus the trivia."""

import textwrap
from pathlib import Path

import libcst as cst
import pytest

from jitlint.walk import TRIVIA_TYPES, children, walk

ROOT = Path(__file__).resolve().parents[1]

EVERY_SYNTAX = textwrap.dedent('''
    from __future__ import annotations
    import os.path as p, sys
    from . import a
    from ..b import (c as d, e)
    from m import *
    @dec(1)
    @other
    def f(a, /, b: int = 1, *args: str, c, d=2, **kw) -> "X":
        global g
        x: List[int] = [1, *y]
        x[1:2:3], x[::], x[a, b] = 1, 2, 3
        y = {1: 2, **z}; s = {1, 2}
        t = (i for i in x if i if not i)
        v = {k: v for k, v in w.items()}
        w = lambda q, *r, s=1: q + r - ~s
        x += 1; x @= y; del x[0]
        assert a and b or not c, "msg"
        while a < b <= c is not d not in e:
            break
        else:
            continue
        for i, (j, k) in enumerate(x):
            pass
        try:
            raise E from F
        except (A, B) as e:
            yield e
        except C:
            yield from z
        else:
            pass
        finally:
            return f"{a!r:>{w}} {b=}" "s" "t"
        match x:
            case [1, *rest] | {"k": v, **kw} if v:
                pass
            case Point(x=0, y=_) as p:
                pass
        try:
            pass
        except* D:
            pass
        if (n := len(x)) > 1: pass
        elif x: pass
        else: pass
        return a if b else c
    async def h():
        u = [[j async for j in k] for k in x]
        async with a as b, c:
            await g
    class C(B, metaclass=M):
        x: int
        def m(self): return self.x[0].y(*a, **k)
    type Alias = list[int]
    def g[T](x: T) -> T: ...
''')


class _Recorder(cst.CSTVisitor):
    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, TRIVIA_TYPES):
            return False
        self.events.append(("visit", type(node).__name__))
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        if not isinstance(original_node, TRIVIA_TYPES):
            self.events.append(("leave", type(original_node).__name__))


def _events(tree: cst.Module, use_walk: bool) -> list[tuple[str, str]]:
    recorder = _Recorder()
    if use_walk:
        walk(tree, recorder)
    else:
        tree.visit(recorder)
    return recorder.events


SOURCES = [EVERY_SYNTAX] + [
    path.read_text() for path in sorted((ROOT / "fixtures").rglob("*.py")) + sorted((ROOT / "src").rglob("*.py"))
]


@pytest.mark.parametrize("source", SOURCES, ids=range(len(SOURCES)))
def test_walk_matches_libcst_visit_minus_trivia(source):
    tree = cst.parse_module(source)
    expected = _events(tree, use_walk=False)
    assert len(expected) >= 4
    assert _events(tree, use_walk=True) == expected


@pytest.mark.parametrize("source", [EVERY_SYNTAX, (ROOT / "src/jitlint/engine.py").read_text()], ids=["syntax", "engine"])
def test_children_are_libcst_children_minus_trivia(source):
    tree = cst.parse_module(source)
    pending, checked = [tree], 0
    while pending:
        node = pending.pop()
        expected = [child for child in node.children if not isinstance(child, TRIVIA_TYPES)]
        found = [child for child in children(node) if not isinstance(child, TRIVIA_TYPES)]  # (a match's `|`)
        assert [id(child) for child in found] == [id(child) for child in expected], type(node).__name__
        pending.extend(expected)
        checked += 1
    assert checked > 200


def test_walk_skips_children_when_on_visit_returns_false():
    class NoCalls(_Recorder):
        def on_visit(self, node):
            return super().on_visit(node) and not isinstance(node, cst.Call)

    recorder = NoCalls()
    walk(cst.parse_module("f(g(x))\ny = 1\n"), recorder)
    names = [name for event, name in recorder.events if event == "visit"]
    assert names.count("Call") == 1 and "Arg" not in names and "Integer" in names


def test_walk_calls_visit_and_leave_handlers():
    seen = []

    class Handlers(cst.CSTVisitor):
        def visit_Name(self, node):
            seen.append(("visit", node.value))

        def leave_Name(self, node):
            seen.append(("leave", node.value))

    walk(cst.parse_module("a.b = c\n"), Handlers())
    assert seen == [("visit", "a"), ("leave", "a"), ("visit", "b"), ("leave", "b"), ("visit", "c"), ("leave", "c")]

"""Shared layout nodes (src/jitlint/layout.py): the trees are LibCST's own, with less memory."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from jitlint import layout
from jitlint.rules.base import PendingEdit, RawFinding, Rule

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for d in ("fixtures", "src", "tests") for p in (ROOT / d).rglob("*.py"))


def _nodes(node: cst.CSTNode) -> list[cst.CSTNode]:
    found = [node]
    for child in node.children:
        found.extend(_nodes(child))
    return found


def test_every_source_of_this_repository_parses_to_the_same_tree_and_code():
    assert len(SOURCES) > 50
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        shared, plain = layout.parse_module(text), cst.parse_module(text)
        assert shared.code == text, path
        assert shared.deep_equals(plain), path


def test_nodes_are_shared_within_and_across_files():
    first = layout.parse_module("f(a, b)\ng(c, d)\n")
    second = layout.parse_module("h(x, y)\n")
    commas = [n for tree in (first, second) for n in _nodes(tree) if isinstance(n, cst.Comma)]
    assert len(commas) == 3 and len({id(c) for c in commas}) == 1
    assert all(layout.is_shared(c) for c in commas)
    names = [n for n in _nodes(first) if isinstance(n, cst.Name)]
    assert names and not any(layout.is_shared(n) for n in names)  # only layout is shared
    # A call split over lines: the whitespace after `(` and each `,` (parenthesized, no blank line) is shared too.
    split = [n for tree in (layout.parse_module("f(\n    a,\n    b,\n)\n"), layout.parse_module("g(\n    c,\n)\n"))
             for n in _nodes(tree) if isinstance(n, cst.ParenthesizedWhitespace)]
    assert len(split) >= 4 and all(layout.is_shared(n) for n in split) and len({id(n) for n in split}) < len(split)
    text = (ROOT / "src" / "jitlint" / "engine.py").read_text(encoding="utf-8")
    nodes = _nodes(layout.parse_module(text))
    whitespace = [n for n in nodes if isinstance(n, cst.SimpleWhitespace)]
    assert len({id(n) for n in whitespace}) < len(whitespace) / 10


def test_names_hold_one_string_per_distinct_text_but_are_not_shared():
    # The parser makes a new string per occurrence; the factory interns it (about a tenth of a tree's memory).
    first = layout.parse_module("self.x = self.y\n")
    second = layout.parse_module("def f(self, x):\n    return self\n")
    names = [n for tree in (first, second) for n in _nodes(tree) if isinstance(n, cst.Name)]
    selves = [n for n in names if n.value == "self"]
    assert len(selves) == 4 and len({id(n) for n in selves}) == 4
    assert len({id(n.value) for n in selves}) == 1
    plain = [n for n in _nodes(cst.parse_module("self.x = self.y\n")) if isinstance(n, cst.Name) and n.value == "self"]
    assert plain[0].value is not plain[1].value  # what LibCST alone does (so the assertion above can fail)


def test_a_layout_node_holding_a_comment_is_not_shared():
    tree = layout.parse_module("f(a,  # one\n  b)\nf(a,  # two\n  b)\n")
    assert tree.code == "f(a,  # one\n  b)\nf(a,  # two\n  b)\n"
    comments = [n.value for n in _nodes(tree) if isinstance(n, cst.Comment)]
    assert comments == ["# one", "# two"]


def test_libcst_classes_are_restored_after_a_parse_and_after_a_parse_error():
    before = {name: getattr(cst, name) for name in [*layout.layout_classes(), "Name"]}
    assert "Comma" in before and "Add" in before and "SimpleWhitespace" in before
    layout.parse_module("x = a + b\n")
    with pytest.raises(cst.ParserSyntaxError):
        layout.parse_module("def (:\n")
    assert {name: getattr(cst, name) for name in before} == before
    assert all(isinstance(value, type) for value in before.values())
    assert isinstance(cst.Comma(), cst.Comma) and not layout.is_shared(cst.Comma())


def test_positions_of_statements_and_expressions_are_those_of_an_unshared_tree():
    for path in SOURCES[:40]:
        text = path.read_text(encoding="utf-8")
        shared, plain = layout.parse_module(text), cst.parse_module(text)
        shared_positions = MetadataWrapper(shared, unsafe_skip_copy=True).resolve(PositionProvider)
        plain_positions = MetadataWrapper(plain, unsafe_skip_copy=True).resolve(PositionProvider)
        pairs = list(zip(_nodes(shared), _nodes(plain), strict=True))
        checked = 0
        for mine, theirs in pairs:
            if not layout.is_shared(mine):
                assert shared_positions[mine] == plain_positions[theirs], (path, type(mine).__name__)
                checked += 1
        assert checked > 0


def test_a_finding_or_fix_on_a_shared_node_is_refused():
    tree = layout.parse_module("def f(x=1.0):\n    return x\n")
    param = tree.body[0].params.params[0]
    assert layout.is_shared(param.equal)
    with pytest.raises(ValueError, match="shared layout node"):
        PendingEdit(param.equal, " = ")
    with pytest.raises(ValueError, match="shared layout node"):
        RawFinding(Rule, param.equal, "message")
    PendingEdit(param.name, "x: float = ", until=param.default)  # what JIT201's fix does instead

"""`jitlint.positions` gives every node the position LibCST's `PositionProvider` gives it."""

import textwrap
from pathlib import Path

import libcst as cst
import pytest

from jitlint import positions as positions_module
from jitlint.layout import parse_module
from jitlint.positions import StatementPositions, _libcst_positions, positions

ROOT = Path(__file__).resolve().parents[1]

AWKWARD = {
    "empty": "",
    "newline only": "\n",
    "comment only, no trailing newline": "# a comment",
    "no trailing newline": "x = 1\ny = 2",
    "crlf": "import torch\r\n\r\nclass M(torch.nn.Module):\r\n    def forward(self, x):\r\n        return x\r\n",
    "cr": "x = 1\ry = (1,\r     2)\r",
    "tabs and continuation": "def f(a,\n\tb):\n\treturn a + \\\n\t\tb\n",
    "decorators and strings": textwrap.dedent('''\
        @torch.jit.script
        @other(1,
               2)
        def f(x: int) -> str:
            s = f"{x!r:>{10}} and {'nested'}"
            t = """a
        multi-line string"""
            return s + t  # trailing comment

        class C:  # comment
            """Doc."""

            @property
            def p(self): return [i for i in range(3) if i][0]
        '''),
}


def _same(tree: cst.Module) -> int:
    mine, theirs = positions(tree), _libcst_positions(tree)
    assert dict(mine) == dict(theirs)
    return len(theirs)


@pytest.mark.parametrize("name", sorted(AWKWARD))
def test_awkward_modules(name):
    assert _same(cst.parse_module(AWKWARD[name])) >= 1


def test_every_python_file_here():
    files = sorted([*(ROOT / "src").rglob("*.py"), *(ROOT / "tests").rglob("*.py"), *(ROOT / "fixtures").rglob("*.py"),
                    *(ROOT / "bench").glob("*.py")])
    nodes = 0
    for path in files:
        try:
            tree = parse_module(path.read_text(encoding="utf-8"))
        except Exception:  # (fixtures that do not parse on purpose)
            continue
        nodes += _same(tree)
    assert nodes > 100_000


def test_the_provider_of_libcst_is_what_it_compares_with():
    """The comparison can fail: a state that counted a newline-free token wrong would differ (checked here)."""
    tree = cst.parse_module("x = 'a'\ny = 2\n")

    class Wrong(positions_module._State):
        __slots__ = ()

        def add_token(self, value):
            self.tokens.append(value)
            self.column += len(value)  # no newline handling

    real = positions_module._State
    try:
        positions_module._State = Wrong
        assert dict(positions(tree)) != dict(_libcst_positions(tree))
    finally:
        positions_module._State = real
    assert dict(positions(tree)) == dict(_libcst_positions(tree))


def _per_statement_agrees(text: str, first_lines, order_seed: int = 0) -> StatementPositions:
    import random

    from jitlint.layout import is_shared

    tree = parse_module(text)
    whole = positions(tree)
    lazy = StatementPositions(tree, text, first_lines)
    nodes = [node for node in whole if not is_shared(node) and node is not tree]
    random.Random(order_seed).shuffle(nodes)
    for node in nodes:
        assert lazy[node] == whole[node], (type(node).__name__, whole[node])
    return lazy


STATEMENTS = textwrap.dedent('''\
    """Doc."""
    # a comment before the imports

    import torch
    from torch import nn


    @decorator(1,
               2)
    # between the decorator and the def
    def f(x):  # trailing
        return x; y = 1


    class C(nn.Module):
        def forward(self, x):
            if x:
                return x
            # a comment at the end of the block

    x = 1; y = 2
    if x:
        z = 3
    ''')


def test_positions_one_statement_at_a_time_are_those_of_the_whole_module():
    from jitlint.linting import statement_lines

    lazy = _per_statement_agrees(STATEMENTS, statement_lines(STATEMENTS))
    assert not lazy.whole  # (each statement on its own: the lines were right)
    for name in sorted(AWKWARD):
        _per_statement_agrees(AWKWARD[name], statement_lines(AWKWARD[name]))
    for path in sorted((ROOT / "src" / "jitlint").glob("*.py"))[:20]:
        text = path.read_text(encoding="utf-8")
        _per_statement_agrees(text, statement_lines(text), order_seed=len(text))


def test_wrong_statement_lines_compute_the_whole_module():
    from jitlint.linting import statement_lines

    lines = list(statement_lines(STATEMENTS))
    lines[3] += 1  # the decorated function said to start a line later
    tree = parse_module(STATEMENTS)
    lazy = StatementPositions(tree, STATEMENTS, lines)
    function = tree.body[3]
    assert lazy[function.body] == positions(tree)[function.body]
    assert lazy.whole
    assert StatementPositions(tree, STATEMENTS, None).whole


def test_a_range_bound_to_a_shared_node_computes_the_whole_module():
    """`from m import (a, b)` ends where its shared `)` was first generated in the module (here in the first
    import): not known from the statement alone."""
    from jitlint.linting import statement_lines

    text = "from n import (c)\nprint(1)\nfrom m import (a,\n    b)\nx = 1\n"
    tree = parse_module(text)
    whole = positions(tree)
    lazy = StatementPositions(tree, text, statement_lines(text))
    assert lazy[tree.body[2]] == whole[tree.body[2]]
    assert lazy.whole
    lazy = StatementPositions(tree, text, statement_lines(text))
    assert lazy[tree.body[3]] == whole[tree.body[3]]
    assert not lazy.whole
    _per_statement_agrees(text, statement_lines(text))

"""`jitlint.positions` gives every node the position LibCST's `PositionProvider` gives it."""

import textwrap
from pathlib import Path

import libcst as cst
import pytest

from jitlint import positions as positions_module
from jitlint.layout import parse_module
from jitlint.positions import _libcst_positions, positions

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

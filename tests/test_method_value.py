"""A bound method used as a value (JIT435), and module attributes torch cannot convert (JIT603: a
`functools.partial`, a bound method stored on `self`): each program is linted with jitlint and scripted with torch
2.13, and they must agree on the verdict and the line.

A line marked `# rejects` is where torch 2.13 reports its error: jitlint must report an error there (`CODE` after the
mark names the rule that must), and torch must reject the program at that line with `TEXT` (after `|`). A case
without a mark must script, and jitlint must report no error on it.
"""

import re
import textwrap

import pytest

from oracles import points_at
from oracles.script import script_source

HEADER = """\
import functools
from typing import List, Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


def helper(fn, x: torch.Tensor) -> torch.Tensor:
    return x

"""


def case(source: str) -> str:
    return HEADER + textwrap.dedent(source)


METHOD = "method cannot be used as a value"
FUNCTION = "function cannot be used as a value"
PYFUNCTION = "python value of type 'function' cannot be used as a value"
CONVERT = "failed to convert Python type"

CASES = {
    # -- JIT435: where torch needs a value ---------------------------------------------------------------------------
    "argument": case(f"""
        class M(nn.Module):
            def forward(self, x):
                return helper(self.g, x)  # rejects JIT435 | {METHOD}

            def g(self, x):
                return x
    """),
    "keyword-argument": case(f"""
        class M(nn.Module):
            def forward(self, x):
                return helper(fn=self.g, x=x)  # rejects JIT435 | {METHOD}

            def g(self, x):
                return x
    """),
    "returned": case(f"""
        class M(nn.Module):
            def forward(self, x):
                return self.g  # rejects JIT435 | {METHOD}

            def g(self, x):
                return x
    """),
    "in-a-tuple": case(f"""
        class M(nn.Module):
            def forward(self, x):
                t = (self.g, x)  # rejects JIT435 | {METHOD}
                return x

            def g(self, x):
                return x
    """),
    "in-a-list-looped": case(f"""
        class M(nn.Module):
            def forward(self, x):
                for f in [self.g]:  # rejects JIT435 | {METHOD}
                    x = f(x)
                return x

            def g(self, x):
                return x
    """),
    "in-a-dict": case(f"""
        class M(nn.Module):
            def forward(self, x):
                d = {{"a": self.g}}  # rejects JIT435 | {METHOD}
                return x

            def g(self, x):
                return x
    """),
    "is-none": case(f"""
        class M(nn.Module):
            def forward(self, x):
                if self.g is None:  # rejects JIT435 | {METHOD}
                    return x
                return x + 1

            def g(self, x):
                return x
    """),
    "truth": case(f"""
        class M(nn.Module):
            def forward(self, x):
                if self.g:  # rejects JIT435 | {METHOD}
                    return x
                return x + 1

            def g(self, x):
                return x
    """),
    "if-expression": case(f"""
        class M(nn.Module):
            def forward(self, x, c: bool = True):
                f = self.g if c else self.h  # rejects JIT435 | {METHOD}
                return x

            def g(self, x):
                return x

            def h(self, x):
                return x
    """),
    "printed": case(f"""
        class M(nn.Module):
            def forward(self, x):
                print(self.g)  # rejects JIT435 | {METHOD}
                return x

            def g(self, x):
                return x
    """),
    "forward-itself": case(f"""
        class M(nn.Module):
            def forward(self, x):
                return helper(self.forward, x)  # rejects JIT435 | {METHOD}
    """),
    "classmethod": case(f"""
        class M(nn.Module):
            @classmethod
            def s(cls, x):
                return x

            def forward(self, x):
                return helper(self.s, x)  # rejects JIT435 | {METHOD}
    """),
    "exported": case(f"""
        class M(nn.Module):
            @torch.jit.export
            def s(self, x):
                return x

            def forward(self, x):
                return helper(self.s, x)  # rejects JIT435 | {METHOD}
    """),
    "staticmethod": case(f"""
        class M(nn.Module):
            @staticmethod
            def s(x):
                return x

            def forward(self, x):
                return helper(self.s, x)  # rejects JIT435 | {FUNCTION}
    """),
    "ignored": case(f"""
        class M(nn.Module):
            @torch.jit.ignore
            def s(self, x):
                return x

            def forward(self, x):
                return helper(self.s, x)  # rejects JIT435 | {PYFUNCTION}
    """),
    "unused": case(f"""
        class M(nn.Module):
            @torch.jit.unused
            def s(self, x):
                return x

            def forward(self, x):
                return helper(self.s, x)  # rejects JIT435 | {PYFUNCTION}
    """),
    "inherited": case(f"""
        class Base(nn.Module):
            def g(self, x):
                return x

            def forward(self, x):
                return x


        class M(Base):
            def forward(self, x):
                return helper(self.g, x)  # rejects JIT435 | {METHOD}
    """),
    "decorated-class": case(f"""
        def register(cls):
            return cls


        @register
        class M(nn.Module):
            def forward(self, x):
                return helper(self.g, x)  # rejects JIT435 | {METHOD}

            def g(self, x):
                return x
    """),
    # -- JIT435 look-alikes torch compiles --------------------------------------------------------------------------
    "called": case("""
        class M(nn.Module):
            def forward(self, x):
                return self.g(x)

            def g(self, x):
                return x
    """),
    "bound-to-a-local-and-called": case("""
        class M(nn.Module):
            def forward(self, x):
                f = self.g
                return f(x)

            def g(self, x):
                return x
    """),
    "bound-to-a-local-unused": case("""
        class M(nn.Module):
            def forward(self, x):
                f = self.forward
                return x
    """),
    "expression-statement": case("""
        class M(nn.Module):
            def forward(self, x):
                self.g
                return x

            def g(self, x):
                return x
    """),
    "property": case("""
        class M(nn.Module):
            @property
            def p(self) -> int:
                return 3

            def forward(self, x):
                if self.p is None:
                    return x
                return x + self.p
    """),
    "submodule": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(4, 4)

            def forward(self, x):
                layers = [self.lin]
                return self.lin(x)
    """),
    "attribute-set-over-the-method": case("""
        class Base(nn.Module):
            def g(self, x):
                return x

            def forward(self, x):
                return x


        class M(Base):
            def __init__(self):
                super().__init__()
                self.g = 3

            def forward(self, x):
                return x + self.g
    """),
    "not-compiled": case("""
        class M(nn.Module):
            def forward(self, x):
                return x

            def unused_helper(self, x):
                return helper(self.g, x)

            def g(self, x):
                return x
    """),
    "inside-ignored": case("""
        class M(nn.Module):
            def forward(self, x):
                return self.run(x)

            @torch.jit.ignore
            def run(self, x):
                return helper(self.g, x)

            def g(self, x):
                return x
    """),
    # -- JIT603: a functools.partial or a bound method stored on the module --------------------------------------
    "partial-attribute": case(f"""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.act = functools.partial(F.gelu, approximate="tanh")

            def forward(self, x):
                return self.act(x)  # rejects JIT603 | {CONVERT}: 'functools.partial'
    """),
    "partial-or-bound-method": case(f"""
        class M(nn.Module):
            def __init__(self, use_python: bool = False):
                super().__init__()
                if use_python:
                    self.act = self._gelu
                else:
                    self.act = functools.partial(F.gelu, approximate="tanh")

            def _gelu(self, x: torch.Tensor) -> torch.Tensor:
                return x * torch.sigmoid(1.702 * x)

            def forward(self, x):
                return self.act(x)  # rejects JIT603 | {CONVERT}: 'functools.partial'
    """),
    "bound-method-attribute": case(f"""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.act = self._gelu

            def _gelu(self, x: torch.Tensor) -> torch.Tensor:
                return x * torch.sigmoid(1.702 * x)

            def forward(self, x):
                return self.act(x)  # rejects JIT603 | {CONVERT}: 'method'
    """),
    "ignored-method-attribute": case(f"""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.act = self._gelu

            @torch.jit.ignore
            def _gelu(self, x: torch.Tensor) -> torch.Tensor:
                return x * torch.sigmoid(1.702 * x)

            def forward(self, x):
                return self.act(x)  # rejects JIT603 | {CONVERT}: 'method'
    """),
    # -- JIT603 look-alikes torch compiles --------------------------------------------------------------------------
    "staticmethod-attribute": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.act = self._gelu

            @staticmethod
            def _gelu(x: torch.Tensor) -> torch.Tensor:
                return x * torch.sigmoid(1.702 * x)

            def forward(self, x):
                return self.act(x)
    """),
    "function-attribute": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.act = F.gelu

            def forward(self, x):
                return self.act(x)
    """),
    "partial-never-read": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.act = functools.partial(F.gelu, approximate="tanh")

            def forward(self, x):
                return x
    """),
    "partial-under-hasattr": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.act = functools.partial(torch.add, alpha=2)

            def forward(self, x):
                if hasattr(self, "act"):
                    return self.act(x, x)
                return x
    """),
    "partial-or-none": case("""
        class M(nn.Module):
            def __init__(self, use: bool = False):
                super().__init__()
                self.act = functools.partial(torch.add, alpha=2) if use else None

            def forward(self, x):
                if self.act is not None:
                    return self.act(x, x)
                return x
    """),
    "partial-replaced-by-a-module": case("""
        class M(nn.Module):
            def __init__(self, use: bool = False):
                super().__init__()
                if use:
                    self.act = functools.partial(F.gelu, approximate="tanh")
                else:
                    self.act = nn.GELU()

            def forward(self, x):
                return self.act(x)
    """),
}


def marked(source: str) -> tuple[int, str, str] | None:
    rows = [(n, m) for n, line in enumerate(source.splitlines(), 1)
            if (m := re.search(r"#\s*rejects\s+(\w+)\s*\|\s*(.+)$", line))]
    assert len(rows) <= 1
    if not rows:
        return None
    row, match = rows[0]
    return row, match.group(1), match.group(2).strip()


@pytest.mark.parametrize("name", sorted(CASES))
def test_jitlint_agrees(name, lint_source):
    source = CASES[name]
    mark = marked(source)
    errors = [f for f in lint_source(source) if f.severity == "error"]
    if mark is None:
        assert [(f.code, f.location.row, f.message) for f in errors] == []
    else:
        row, code, _text = mark
        assert any(f.location.row == row and f.code == code for f in errors), [(f.code, f.location.row) for f in errors]


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(CASES))
def test_torch_agrees(name, tmp_path):
    source = CASES[name]
    mark = marked(source)
    result = script_source(source, tmp_path)
    if mark is None:
        assert result.ok, f"{name}: {result}\n{result.message_full}"
    else:
        row, _code, text = mark
        assert result.rejected, f"{name}: torch.jit.script must reject it, but it {result}"
        assert points_at(result, source, row), f"{name}: marked line {row}, but torch {result}"
        assert result.says(text), f"{name}: torch said {result.message_full[:300]}"

"""Issue 19's timm misses (the `timmmiss` work): each case is linted with jitlint and scripted with torch 2.13
(`@pytest.mark.torch`), and they must agree, as in tests/test_located.py.

A line marked `# rejects JITnnn` is where jitlint must report with that code; torch must reject the program, at
that line, or with no line at all when the mark says `# rejects-whole-class JITnnn` (torch's error names no line of
the file, and its text is the rule page's). A case without a mark must script, and jitlint must report no error and
none of the codes these cases are about.
"""

import re
import textwrap

import pytest

from jitlint import pages
from test_located import lint_agrees, torch_agrees
from torch_oracle import script_source

HEADER = """\
from typing import Any, Dict, List, Optional, Tuple, Union

import torch
import torch.nn as nn
import torch.nn.functional as F

"""

CODES = ("JIT437",)


def case(source: str) -> str:
    return HEADER + textwrap.dedent(source)


WHOLE_CLASS = {
    # -- JIT437: a Union with `Any` and no `None` (timm's naflexvit `-> Union[Tensor, List[Tensor], Any]`) ----------
    "union-any-return": case("""
        class M(nn.Module):
            def rope(self, x: torch.Tensor) -> Union[torch.Tensor, List[torch.Tensor], Any]:  # rejects JIT437
                return x

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                r = self.rope(x)
                return x
    """),
    "union-any-parameter-of-a-free-function": case("""
        def scale(x: torch.Tensor, factor: Union[int, Any]) -> torch.Tensor:  # rejects JIT437
            return x

        class M(nn.Module):
            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return scale(x, 2)
    """),
    "union-any-local": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor) -> torch.Tensor:
                y: Union[int, Any] = 1  # rejects JIT437
                return x
    """),
    "union-any-nested-in-a-container": case("""
        class M(nn.Module):
            def forward(self, x: Dict[str, Union[torch.Tensor, Any]]) -> torch.Tensor:  # rejects JIT437
                return torch.zeros(1)
    """),
    "union-any-pep604": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor, s: int | Any) -> torch.Tensor:  # rejects JIT437
                return x
    """),
    "union-any-string": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor, s: "Union[int, Any]") -> torch.Tensor:  # rejects JIT437
                return x
    """),
    "union-any-ignored-but-called": case("""
        class M(nn.Module):
            @torch.jit.ignore
            def f(self, x: torch.Tensor) -> Union[torch.Tensor, Any]:  # rejects JIT437
                return x

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                y = self.f(x)
                return x
    """),
}

CASES = {
    "union-any-with-none": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor, s: Union[Any, None, int]) -> torch.Tensor:
                return x
    """),
    "optional-union-any": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor, s: Optional[Union[int, Any]] = None) -> torch.Tensor:
                return x
    """),
    "optional-any": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor, s: Optional[Any] = None) -> torch.Tensor:
                return x
    """),
    "union-any-alone": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor, s: Union[Any]) -> torch.Tensor:
                return x
    """),
    "union-of-a-list-of-any": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor, s: Union[List[Any], int]) -> torch.Tensor:
                return x
    """),
    "union-any-in-a-method-nobody-calls": case("""
        class M(nn.Module):
            def unused(self, x: Union[int, Any]) -> int:
                return 1

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return x
    """),
    "union-any-in-an-ignored-method-nobody-calls": case("""
        class M(nn.Module):
            @torch.jit.ignore
            def f(self, x: torch.Tensor) -> Union[torch.Tensor, Any]:
                return x

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return x
    """),
}


def _whole_class_mark(source: str) -> tuple[int, str]:
    rows = [(n, m.group(1)) for n, line in enumerate(source.splitlines(), 1)
            if (m := re.search(r"#\s*rejects\s+(JIT\d+)", line))]
    assert len(rows) == 1
    return rows[0]


@pytest.mark.parametrize("name", sorted(CASES))
def test_jitlint_agrees(name, lint_source):
    lint_agrees(name, CASES[name], lint_source, CODES)


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(CASES))
def test_torch_agrees(name, tmp_path):
    torch_agrees(name, CASES[name], tmp_path)


@pytest.mark.parametrize("name", sorted(WHOLE_CLASS))
def test_jitlint_agrees_whole_class(name, lint_source):
    lint_agrees(name, WHOLE_CLASS[name], lint_source, CODES)


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(WHOLE_CLASS))
def test_torch_rejects_the_whole_class(name, tmp_path):
    """torch rejects the program with the rule page's error and names no line of it."""
    _row, code = _whole_class_mark(WHOLE_CLASS[name])
    result = script_source(WHOLE_CLASS[name], tmp_path)
    assert result.rejected, f"{name}: torch.jit.script must reject it, but it {result}"
    assert result.line is None, f"{name}: torch named a line: {result}"
    # the page's text up to the member types, which torch lists for each Union
    assert result.says(pages.torch_error(code).split("{")[0].rstrip()), f"{name}: {result}\n{result.message_full}"

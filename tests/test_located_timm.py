"""Located misses in timm: each case is linted with jitlint and scripted with torch 2.13
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

CODES = ("JIT437", "JIT438", "JIT202", "JIT301")


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

_STAGES = """
    class SequentialList(nn.Sequential):
        def forward(self, x) -> torch.Tensor:
            for module in self:
                x = module(x)
            return x


    class Net(nn.Module):
        def __init__(self, incre_only: bool = False):
            super().__init__()
            self.transition = nn.ModuleList([nn.Identity(), nn.Identity()])
            self.stage, channels = self._make_stage(4)
            self.heads, self.downs = self._make_head(channels, incre_only)

        def _make_stage(self, channels: int):
            modules = [nn.Identity()]
            return SequentialList(*modules), channels

        def _make_head(self, channels: int, incre_only: bool):
            heads = nn.ModuleList([nn.Linear(channels, channels) for _ in range(3)])
            if incre_only:
                return heads, None
            downs = []
            for i in range(2):
                downs.append(nn.Linear(channels, channels))
            downs = nn.ModuleList(downs)
            return heads, downs
"""

# -- the attributes a helper's tuple sets (`self.stage2, channels = self._make_stage(...)`, timm's hrnet) -----------
CASES = {
    "tuple-unpacked-sequential-called-with-a-list": case(_STAGES + """
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            xl = [t(x) for t in self.transition]
            y = self.stage(xl)  # rejects JIT202
            return x
    """),
    "tuple-unpacked-sequential-called-with-a-tensor": case(_STAGES + """
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.stage(x)
    """),
    "tuple-unpacked-modulelist-iterated": case(_STAGES + """
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            for head in self.heads:
                x = head(x)
            return x
    """),
    "tuple-unpacked-modulelist-indexed": case("""
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.heads, self.downs = self._make_head(4)

            def _make_head(self, channels: int):
                heads = nn.ModuleList([nn.Linear(channels, channels) for _ in range(3)])
                downs = []
                for i in range(2):
                    downs.append(nn.Linear(channels, channels))
                downs = nn.ModuleList(downs)
                return heads, downs

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                for i, head in enumerate(self.heads):
                    if i > 0:
                        x = self.downs[i - 1](x)  # rejects JIT301
                return x
    """),
    # the helper returns None for `downs` on one path: built that way, torch prunes the guarded index (the module
    # scripts), built the other way it rejects it: which one is built is not known here (silent)
    "tuple-unpacked-modulelist-or-none-indexed-under-a-guard": case("""
        class Net(nn.Module):
            def __init__(self, incre_only: bool = True):
                super().__init__()
                self.heads, self.downs = self._make_head(4, incre_only)

            def _make_head(self, channels: int, incre_only: bool):
                heads = nn.ModuleList([nn.Linear(channels, channels) for _ in range(3)])
                if incre_only:
                    return heads, None
                return heads, nn.ModuleList([nn.Linear(channels, channels) for _ in range(2)])

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                if self.downs is None:
                    return x
                for i, head in enumerate(self.heads):
                    if i > 0:
                        x = self.downs[i - 1](x)
                return x
    """),
    # a helper's local re-bound in a loop after its last plain assignment: what it holds is not followed (silent)
    "tuple-unpacked-local-rebound-in-a-loop": case("""
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.heads, self.width = self._make_head(4)

            def _make_head(self, channels: int):
                heads = nn.ModuleList([nn.Linear(channels, channels) for _ in range(3)])
                width = 4
                for i in range(2):
                    width = width * 2
                return heads, width

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                for head in self.heads:
                    x = head(x)
                return x * self.width
    """),
    # -- JIT438: torch's stub of an ignored function has no defaults ------------------------------------------------
    "ignored-method-default-left-out": case("""
        class M(nn.Module):
            @torch.jit.ignore
            def stats(self, x: torch.Tensor, every: int = 10, scale: Optional[float] = None) -> torch.Tensor:
                return x

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return self.stats(x, every=3)  # rejects JIT438
    """),
    "unused-method-default-left-out": case("""
        class M(nn.Module):
            @torch.jit.unused
            def stats(self, x: torch.Tensor, every: int = 10) -> torch.Tensor:
                return x

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                if self.training:
                    return self.stats(x)  # rejects JIT438
                return x
    """),
    "ignored-staticmethod-default-left-out": case("""
        class M(nn.Module):
            @staticmethod
            @torch.jit.ignore
            def params(x: torch.Tensor, attempts: int = 10) -> int:
                return attempts

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return x * self.params(x)  # rejects JIT438
    """),
    "ignored-free-function-default-left-out": case("""
        @torch.jit.ignore
        def stats(x: torch.Tensor, every: int = 10) -> torch.Tensor:
            return x

        class M(nn.Module):
            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return stats(x)  # rejects JIT438
    """),
    "ignored-method-every-default-passed": case("""
        class M(nn.Module):
            @torch.jit.ignore
            def stats(self, x: torch.Tensor, every: int = 10, scale: Optional[float] = None) -> torch.Tensor:
                return x

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return self.stats(x, 3, scale=None)
    """),
    "compiled-method-default-left-out": case("""
        class M(nn.Module):
            def stats(self, x: torch.Tensor, every: int = 10) -> torch.Tensor:
                return x * every

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return self.stats(x)
    """),
    "ignored-method-not-called": case("""
        class M(nn.Module):
            @torch.jit.ignore
            def stats(self, x: torch.Tensor, every: int = 10) -> torch.Tensor:
                return x

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return x
    """),
    "list-local-passed-to-an-annotated-parameter": case("""
        class Stage(nn.Module):
            def forward(self, xs: List[torch.Tensor]) -> torch.Tensor:
                return xs[0]

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.stage, self.transition = self._make()

            def _make(self):
                return Stage(), nn.ModuleList([nn.Identity()])

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                xl = [t(x) for t in self.transition]
                return self.stage(xl)
    """),
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

"""Fixes never break a program: the fixes that did (a method made to call itself, an annotation that left out
what the list also holds) are no longer offered, and every fix is checked before it is written (it parses, a
re-lint no longer reports what it fixed, no method is made to call itself, no name is bound anew)."""

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from jitlint.cli import main
from jitlint.finding import Edit, Finding, Fix, Location
from jitlint.fixes import fix_sources

from oracles.script import script_source


def _check(source: str, *args: str) -> list[dict]:
    result = CliRunner().invoke(main, ["check", "--no-cache", "--output-format", "json", *args,
                                       "--stdin-filename", "m.py", "-"], input=textwrap.dedent(source))
    return json.loads(result.output)


def _fixed(tmp_path: Path, source: str, unsafe: bool) -> str:
    path = tmp_path / "m.py"
    path.write_text(textwrap.dedent(source))
    CliRunner().invoke(main, ["check", "--no-cache", "--fix", "-q", *(["--unsafe-fixes"] if unsafe else []),
                              str(path)])
    return path.read_text()


OVERRIDE_CALLS_BASE = """\
import torch
from torch import nn


class Detect(nn.Module):
    def forward(self, x):
        return x * 2


class Segment(Detect):
    def forward(self, x):
        y = Detect.forward(self, x)
        return y + 1


class Helper(nn.Module):
    def scale(self, x):
        return x * 3

    def forward(self, x):
        return x


class UsesHelper(Helper):
    def forward(self, x):
        return Helper.scale(self, x)
"""


def test_base_method_call_inside_the_override_is_not_rewritten_to_call_itself(tmp_path):
    findings = {f["location"]["row"]: f for f in _check(OVERRIDE_CALLS_BASE) if f["code"] == "JIT408"}
    assert set(findings) == {12, 26}
    assert findings[12]["fix"] is None  # `self.forward(x)` inside `forward` would call itself
    assert findings[26]["fix"] is not None  # nothing overrides `scale`: `self.scale(x)` is the same method
    fixed = _fixed(tmp_path, OVERRIDE_CALLS_BASE, unsafe=True)
    assert "y = Detect.forward(self, x)" in fixed
    assert "return self.scale(x)" in fixed


def test_base_method_call_is_not_rewritten_when_a_captured_subclass_overrides_it(tmp_path):
    source = """\
    from torch import nn


    class Base(nn.Module):
        def helper(self, x):
            return x * 2

        def forward(self, x):
            return Base.helper(self, x)


    class Child(Base):
        def helper(self, x):
            return x + 1
    """
    findings = [f for f in _check(source) if f["code"] == "JIT408"]
    assert findings and all(f["fix"] is None for f in findings)


LIST_WITH_NONE_AND_TENSORS = """\
import torch
from torch import nn


class Faces(nn.Module):
    def forward(self, x: torch.Tensor, keep: bool):
        faces = []
        for i in range(3):
            if not keep:
                faces.append(None)
                continue
            faces.append(x * i)
        return faces
"""


def test_empty_list_annotation_covers_every_element_appended(tmp_path):
    findings = [f for f in _check(LIST_WITH_NONE_AND_TENSORS) if f["code"] == "JIT210"]
    assert len(findings) == 1
    assert "List[None]" not in findings[0]["message"]
    assert "faces: List[Optional[torch.Tensor]] = []" in findings[0]["message"]
    fixed = _fixed(tmp_path, LIST_WITH_NONE_AND_TENSORS, unsafe=False)
    assert "faces: list[Optional[torch.Tensor]] = []" in fixed or "faces: list[torch.Tensor | None] = []" in fixed
    assert _check(fixed) == []


@pytest.mark.torch
def test_empty_list_annotation_fix_scripts(tmp_path):
    fixed = _fixed(tmp_path, LIST_WITH_NONE_AND_TENSORS, unsafe=False)
    result = script_source(fixed, tmp_path)
    assert result.ok, result.describe()


def test_empty_list_of_elements_of_unknown_types_gets_no_fix():
    source = """\
    import torch
    from torch import nn


    class Faces(nn.Module):
        def __init__(self, value):
            super().__init__()
            self.value = value  # its type is the constructor argument's, which the source does not show

        def forward(self, x: torch.Tensor, keep: bool):
            faces = []
            faces.append(None)
            faces.append(self.value)
            return faces
    """
    findings = [f for f in _check(source) if f["code"] == "JIT210"]
    assert all(f["fix"] is None for f in findings)
    assert all("List[None]" not in f["message"] for f in findings)


# -- the generic checks of every fix, with a stand-in for the lint ------------------------------------------------
def _finding(code: str, text: str, start: int, end: int, content: str, row_of=None) -> Finding:
    """A finding over text[start:end] whose fix replaces it with `content` (offsets into a one-file text)."""
    def location(offset: int) -> Location:
        before = text[:offset]
        return Location(before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1)

    return Finding(code, "rule", "message", "error", "m.py", location(start), location(end),
                   fix=Fix("safe", "fix it", (Edit(content, location(start), location(end)),)))


def _lint_with(fixes: dict[str, tuple[str, str, str]]):
    """A lint that reports, for each (code -> (old, new, still)) whose `old` text is in the file, a finding with a
    fix to `new`; and `still` keeps being reported once fixed when it is in the file."""
    def lint(changed: dict[str, str]):
        text = changed.get("m.py", ORIGINAL)
        found = []
        for code, (old, new, still) in fixes.items():
            where = text.find(old)
            if where >= 0:
                found.append(_finding(code, text, where, where + len(old), new))
            elif still and still in text:
                where = text.find(still)
                found.append(Finding(code, "rule", "message", "error", "m.py",
                                     _finding(code, text, where, where, "").location,
                                     _finding(code, text, where, where, "").location))
        return found

    return lint


ORIGINAL = textwrap.dedent("""\
    class Base:
        def forward(self, x):
            return x


    class Child(Base):
        def forward(self, x):
            return Base.forward(self, x) + 1

        def other(self, x):
            return len(x)
""")


def test_a_fix_that_makes_a_method_call_itself_is_not_applied():
    lint = _lint_with({"JIT408": ("Base.forward(self, x)", "self.forward(x)", "")})
    result = fix_sources({"m.py": ORIGINAL}, lint, unsafe=True)["m.py"]
    assert result.fixed == ORIGINAL
    assert [finding.code for finding, _why in result.refused] == ["JIT408"]
    assert "call itself" in result.refused[0][1]


def test_a_fix_that_binds_a_name_anew_is_not_applied():
    # `len` in `other` is the builtin; a fix that makes it a local changes what the name means
    lint = _lint_with({"JIT999": ("return len(x)", "len = 3\n        return len(x)", "")})
    result = fix_sources({"m.py": ORIGINAL}, lint, unsafe=True)["m.py"]
    assert result.fixed == ORIGINAL
    assert "binding" in result.refused[0][1]


def test_a_fix_whose_finding_is_still_reported_is_not_applied():
    # the re-lint still reports the finding where the fix was
    lint = _lint_with({"JIT999": ("return x\n", "return x  # changed\n", "return x  # changed")})
    result = fix_sources({"m.py": ORIGINAL}, lint, unsafe=True)["m.py"]
    assert result.fixed == ORIGINAL
    assert "still reported" in result.refused[0][1]


def test_a_fix_that_passes_the_checks_is_applied():
    lint = _lint_with({"JIT999": ("return len(x)", "return 0 + len(x)", "")})
    result = fix_sources({"m.py": ORIGINAL}, lint, unsafe=True)["m.py"]
    assert "return 0 + len(x)" in result.fixed
    assert not result.refused


MAP_OF_LAMBDA = """\
import torch
from torch import nn


class Heads(nn.Module):
    def forward(self, q, k):
        q, k = map(lambda t: t * 2 + 1, (q, k))
        scaled = list(map(lambda t, s=3: t * s, (q, k)))
        doubled = map(torch.relu if q.sum() > 0 else torch.tanh, (q, k))
        return q + k + scaled[0] + list(doubled)[1]
"""


def test_map_of_a_lambda_becomes_a_comprehension_that_computes_the_same(tmp_path):
    import importlib.util

    import torch

    fixed = _fixed(tmp_path, MAP_OF_LAMBDA, unsafe=False)
    assert "q, k = [t * 2 + 1 for t in (q, k)]" in fixed
    assert "[(lambda t, s=3: t * s)(item) for item in (q, k)]" in fixed
    assert "[(torch.relu if q.sum() > 0 else torch.tanh)(item) for item in (q, k)]" in fixed
    results = []
    for index, text in enumerate((MAP_OF_LAMBDA, fixed)):
        path = tmp_path / f"variant{index}.py"
        path.write_text(text)
        spec = importlib.util.spec_from_file_location(f"_map_variant_{index}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        torch.manual_seed(0)
        q, k = torch.randn(3), torch.randn(3)
        results.append(module.Heads()(q, k))
    assert torch.equal(results[0], results[1])

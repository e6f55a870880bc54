"""The lines a finding covers for the dynamic checker (`FindingContext.statement_lines`): the smallest statement
around the finding's own node, a compound statement's header only. A confirmation means torch rejected those lines;
before, a flow rule (it reports from its function's `def`) covered the whole function, and any error torch gave in
it confirmed the finding. The baseline key (`statement_text`) is unchanged by this."""

import textwrap

import pytest
from conftest import codes_for, lint_files
from oracles import covered_lines

from jitlint import pages
from jitlint.baseline import normalise_statement

SCRIPT = codes_for("script")


def _findings(tmp_path, source: str):
    return lint_files({"model.py": textwrap.dedent(source)}, tmp_path, codes=SCRIPT)


def _one(tmp_path, source: str, code: str):
    [finding] = [f for f in _findings(tmp_path, source) if f.code == code]
    return finding


def test_a_flow_finding_covers_its_own_statement_not_its_function(tmp_path):
    finding = _one(tmp_path, """
        import torch
        import torch.nn as nn


        class Gate(nn.Module):
            def forward(self, x) -> torch.Tensor:
                y = x + 1
                if x.sum() > 0:
                    return y
                return None
    """, "JIT208")
    assert finding.location.row == 11
    assert finding.context.statement_lines == (11, 11)
    # the baseline still matches it by its function's header, as before
    assert finding.context.statement_text == normalise_statement("def forward(self, x) -> torch.Tensor:")


def test_a_call_over_several_lines_is_one_statement(tmp_path):
    finding = _one(tmp_path, """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F


        class Up(nn.Module):
            def forward(self, x):
                y = x * 2
                return F.interpolate(
                    x,
                    scale_factor=2,
                )
    """, "JIT416")
    assert finding.context.statement_lines == (10, 13)


def test_a_compound_statement_covers_its_header_only(tmp_path):
    finding = _one(tmp_path, """
        import torch
        import torch.nn as nn


        class Count(nn.Module):
            def forward(self, x):
                for i in range(3):
                    x = x + i
                else:
                    x = x * 2
                return x
    """, "JIT110")
    assert finding.location.row == 8
    assert finding.context.statement_lines == (8, 8)  # the `for`, not its body or its `else`


@pytest.mark.parametrize("page", [p for p in pages.all_pages() if p.target in ("script", "shared")],
                         ids=lambda page: page.code)
def test_every_page_finding_covers_what_the_page_test_accepts_as_torch_line(tmp_path, page):
    """tests/test_pages.py accepts torch's line in the statement (or compound header) a finding covers; the
    dynamic checker must match the same lines."""
    for finding in lint_files({"example.py": page.bad}, tmp_path, codes=SCRIPT):
        covered = covered_lines(page.bad, finding.location.row)
        assert finding.context.statement_lines == (covered.start, covered.stop - 1), (finding.code, finding.location)


HEADER_OVER_LINES = """\
from typing import Callable

import torch
import torch.nn as nn


class Wrapped(nn.Module):
    def forward(
        self,
        x: torch.Tensor,
        fn: Callable[..., torch.Tensor],
        **kwargs,
    ) -> torch.Tensor:
        return x
"""


def test_a_parameter_of_a_def_over_several_lines_covers_its_own_lines(tmp_path):
    found = {f.code: f for f in lint_files({"model.py": HEADER_OVER_LINES}, tmp_path, codes=SCRIPT)}
    assert found["JIT203"].location.row == 11 and found["JIT203"].context.statement_lines == (11, 11)
    assert found["JIT108"].location.row == 12 and found["JIT108"].context.statement_lines == (12, 12)


@pytest.mark.torch
def test_torch_names_the_parameters_own_line(tmp_path):
    """Torch's error for `**kwargs` names line 12 only: the `Callable` annotation at line 11 is not shown rejected
    by it (before, the whole `def` header was both findings' statement, and the error confirmed both)."""
    from oracles.script import script_source

    result = script_source(HEADER_OVER_LINES, tmp_path)
    assert not result.ok and result.line == 12, result
    assert "variable number of arguments" in result.message
    # and with `**kwargs` gone, torch names the annotation's own line
    result = script_source(HEADER_OVER_LINES.replace("        **kwargs,\n", ""), tmp_path, "example2.py")
    assert not result.ok and result.line == 11 and "Unknown type constructor Callable" in result.message, result


PASSED_OVER_LINES = """\
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.prob = 0.5

    @staticmethod
    def get_params(img, prob):
        return img

    def forward(self, img, n):
        for _ in range(
            n,
        ):
            img = img + 1
        return self.get_params(
            img,
            self.prob,
        )
"""


def test_jit202_reports_the_call_torch_names_not_the_argument(tmp_path):
    rows = sorted(f.location.row for f in lint_files({"model.py": PASSED_OVER_LINES}, tmp_path, codes=SCRIPT)
                  if f.code == "JIT202")
    assert rows == [15, 19]


@pytest.mark.torch
def test_torch_names_the_calls_first_line(tmp_path):
    from oracles.script import script_source

    result = script_source(PASSED_OVER_LINES, tmp_path)
    assert not result.ok and result.line == 15 and "all inputs of range must be ints" in result.message, result
    fixed = PASSED_OVER_LINES.replace("def forward(self, img, n)", "def forward(self, img, n: int)")
    result = script_source(fixed, tmp_path, "example2.py")
    assert not result.ok and result.line == 19, result
    assert "Expected a value of type 'Tensor (inferred)' for argument 'prob'" in result.message_full, result

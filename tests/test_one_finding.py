"""One finding per problem: a call of a parameter is JIT426's or JIT430's, never both; EXP205 reports a file's
branches on `self.training` once, naming the other places."""

import json
import textwrap

import pytest
from click.testing import CliRunner

from jitlint.cli import main

from oracles.script import script_source


def _check(source: str, *args: str) -> list[dict]:
    result = CliRunner().invoke(main, ["check", "--no-cache", "--output-format", "json", *args,
                                       "--stdin-filename", "m.py", "-"], input=textwrap.dedent(source))
    return json.loads(result.output)


CALLED_PARAMETERS = {
    "unannotated, no default": ("def forward(self, x, activation):", "activation(x)", "JIT426"),
    "annotated Tensor, no default": ("def forward(self, x, activation: torch.Tensor):", "activation(x)", "JIT426"),
    "annotated int, no default": ("def forward(self, x, activation: int):", "activation(x)", "JIT426"),
    "default None": ("def forward(self, x, activation=None):", "activation(x)", "JIT430"),
    "function default": ("def forward(self, x, activation=torch.relu):", "activation(x)", "JIT430"),
    "annotated Optional, default None": ("def forward(self, x, activation: Optional[torch.Tensor] = None):",
                                          "activation(x)", "JIT430"),
}


@pytest.mark.parametrize("case", sorted(CALLED_PARAMETERS))
def test_a_called_parameter_is_reported_once(case):
    header, call, code = CALLED_PARAMETERS[case]
    source = f"""\
from typing import Optional

import torch
from torch import nn


class M(nn.Module):
    {header}
        return {call}
"""
    found = [f["code"] for f in _check(source) if f["code"] in ("JIT426", "JIT430")]
    assert found == [code]


@pytest.mark.torch
@pytest.mark.parametrize("case", sorted(CALLED_PARAMETERS))
def test_torch_rejects_each_called_parameter(case, tmp_path):
    header, call, _code = CALLED_PARAMETERS[case]
    source = f"""\
from typing import Optional

import torch
from torch import nn


class M(nn.Module):
    {header}
        return {call}
"""
    result = script_source(source, tmp_path)
    assert result.rejected and "cannot call a value of type" in result.message_full, result.describe()


TRAINING_BRANCHES = """\
import torch
from torch import nn


class A(nn.Module):
    def forward(self, x):
        if self.training:
            x = x + 1
        y = x if self.training else x * 2
        return y


class B(nn.Module):
    def forward(self, x):
        if self.training:
            return x
        return x + 1

    def unused(self, x):
        return x
"""


def test_training_branches_are_reported_once_per_file_with_the_places():
    findings = [f for f in _check(TRAINING_BRANCHES, "--target", "export") if f["code"] == "EXP205"]
    assert len(findings) == 1
    assert findings[0]["location"]["row"] == 7
    assert "the same holds for the 2 other branches on `self.training` in this file" in findings[0]["message"]
    assert "`A.forward`" in findings[0]["message"] and "`B.forward`" in findings[0]["message"]


def test_other_export_findings_of_the_file_are_kept():
    source = TRAINING_BRANCHES + """

class C(nn.Module):
    def forward(self, x):
        if x.device.type == "cuda":
            return x
        return x + 1
"""
    codes = sorted(f["code"] for f in _check(source, "--target", "export"))
    assert codes.count("EXP205") == 1 and "EXP206" in codes

"""The export strategy (`--dynamic --target export`): torch.export.export with the example inputs
`[tool.jitlint.dynamic] inputs` declares, in child processes; each export finding is marked confirmed, not
reproduced, or unverified with the reason."""

import json

import pytest

from .project import run_jitlint, write_project

pytestmark = pytest.mark.torch

MODELS = '''
import torch
import torch.nn as nn


class Sub(nn.Module):
    def forward(self, x):
        return x + 1


class Detector(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            x = x * 2
        n = int(x.max().item() * 10)
        if (x > 1).any():
            x = x - 1
        print("shape", x.shape)
        return x * n


class Scripted(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = torch.jit.script(Sub())

    def forward(self, x):
        return self.inner(x)


class Clean(nn.Module):
    def forward(self, x):
        return x.data * 2


class NoInputs(nn.Module):
    def forward(self, x):
        assert (x > 0).all()
        return x
'''

EXAMPLES = '''
import torch


def one_tensor():
    return (torch.randn(8, 3),)


def broken():
    raise RuntimeError("no data here")
'''

CONFIG = '''
[tool.jitlint]
target = ["export"]

[tool.jitlint.dynamic]
inputs = { "pkg.models:Detector" = "pkg.examples:one_tensor", "pkg.models:Scripted" = "pkg.examples:one_tensor", "pkg.models:Clean" = "pkg.examples:broken" }
'''


@pytest.fixture(scope="module")
def confirmed(tmp_path_factory):
    root = write_project(tmp_path_factory.mktemp("project"), {
        "pkg/__init__.py": "", "pkg/models.py": MODELS.lstrip(), "pkg/examples.py": EXAMPLES.lstrip(),
        "pyproject.toml": CONFIG.lstrip()})
    result = run_jitlint("--dynamic", "--no-cache", "--output-format", "json", "pkg", cwd=root)
    assert result.returncode == 1, result.stderr
    return {(f["code"], f["location"]["row"]): f["confirmation"] for f in json.loads(result.stdout)}


def test_every_blocker_of_one_model_is_confirmed(confirmed):
    """export stops at the first blocker; draft_export reports the others, each at its line."""
    for key in [("EXP101", 12), ("EXP103", 14), ("EXP101", 15)]:
        assert confirmed[key]["status"] == "confirmed", (key, confirmed[key])
    assert "(line 12)" in confirmed[("EXP101", 12)]["detail"]


def test_an_error_without_a_line_is_confirmed_by_its_text(confirmed):
    status = confirmed[("EXP105", 24)]
    assert status["status"] == "confirmed" and "positional arguments" in status["detail"], status


def test_silent_changes_and_missing_inputs_are_unverified_with_the_reason(confirmed):
    assert confirmed[("EXP201", 17)]["status"] == "unverified"
    assert confirmed[("EXP102", 37)] == {**confirmed[("EXP102", 37)], "status": "unverified"}
    assert "needs example inputs" in confirmed[("EXP102", 37)]["detail"]
    assert "pkg.models:NoInputs" in confirmed[("EXP102", 37)]["detail"]
    assert "example inputs (pkg.examples:broken) failed" in confirmed[("EXP106", 32)]["detail"]

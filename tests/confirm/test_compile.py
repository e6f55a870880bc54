"""`--dynamic --target compile`: torch.compile(backend="eager") with the example inputs `[tool.jitlint.dynamic]
inputs` declares, over three calls, in child processes; every graph break and recompile is collected, each compile
finding is marked confirmed, not reproduced, or unverified with the reason, and what no rule saw becomes DYN000."""

import json

import pytest

from .project import run_jitlint, write_project

MODELS = '''
import inspect

import torch
import torch.nn as nn


class Detector(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            x = x * 2
        n = int(x.max().item() * 10)
        if (x > 1).any():
            x = x - 1
        print("shape", x.shape)
        return x * n


class Quiet(nn.Module):
    def forward(self, x, mask=None):
        if mask is not None and mask.any():
            x = x * 2
        sig = inspect.signature(len)
        return x + 1


class Counter(nn.Module):
    def __init__(self):
        super().__init__()
        self.step = 0

    def forward(self, x):
        self.step += 1
        return x * 2


class NoInputs(nn.Module):
    def forward(self, x):
        print(x)
        return x
'''

EXAMPLES = '''
import torch


def one_tensor():
    return (torch.randn(8, 3),)
'''

CONFIG = '''
[tool.jitlint]
target = ["compile"]

[tool.jitlint.dynamic]
timeout = 900
inputs = { "pkg.models:Detector" = "pkg.examples:one_tensor", "pkg.models:Quiet" = "pkg.examples:one_tensor", "pkg.models:Counter" = "pkg.examples:one_tensor" }
'''


@pytest.fixture(scope="module")
def confirmed(tmp_path_factory):
    root = write_project(tmp_path_factory.mktemp("project"), {
        "pkg/__init__.py": "", "pkg/models.py": MODELS.lstrip(), "pkg/examples.py": EXAMPLES.lstrip(),
        "pyproject.toml": CONFIG.lstrip()})
    result = run_jitlint("--dynamic", "--no-cache", "--output-format", "json", "pkg", cwd=root)
    assert result.returncode in (0, 1), result.stderr  # warnings only: exit 0
    return {(f["code"], f["location"]["row"]): f["confirmation"] for f in json.loads(result.stdout)}


@pytest.mark.torch
def test_every_break_of_one_model_is_confirmed(confirmed):
    """fullgraph=True would stop at the first; the graph-break log has them all, each at its line."""
    for key in [("DYN101", 9), ("DYN102", 11), ("DYN101", 12), ("DYN104", 14)]:
        assert confirmed[key]["status"] == "confirmed", (key, confirmed[key])
    assert "Data-dependent branching" in confirmed[("DYN101", 9)]["detail"]


@pytest.mark.torch
def test_a_break_no_rule_saw_is_reported(confirmed):
    assert confirmed[("DYN000", 22)]["status"] == "confirmed"
    assert "isinstance" in confirmed[("DYN000", 22)]["detail"]


@pytest.mark.torch
def test_a_finding_torch_does_not_reproduce_with_the_inputs(confirmed):
    status = confirmed[("DYN101", 20)]
    assert status["status"] == "not-reproduced" and "never broke the graph" in status["detail"], status


@pytest.mark.torch
def test_a_recompile_loop_is_confirmed_by_its_guard(confirmed):
    status = confirmed[("DYN201", 32)]
    assert status["status"] == "confirmed" and "self.step" in status["detail"], status


@pytest.mark.torch
def test_a_model_without_inputs_is_unverified_with_the_reason(confirmed):
    status = confirmed[("DYN104", 38)]
    assert status["status"] == "unverified" and "pkg.models:NoInputs" in status["detail"], status

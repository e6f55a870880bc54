"""`--dynamic --target trace`: torch.jit.trace on the declared example inputs, compared with eager on a second set;
findings marked confirmed / not-reproduced / unverified, and what no rule saw reported (TRC010, TRC000)."""

import json
import textwrap
from pathlib import Path

import pytest

from .project import run_jitlint, write_project

MODELS = """
import math

import torch
import torch.nn as nn

from pkg import helpers


class Attention(nn.Module):
    def forward(self, q):
        out = q[:, 0]
        for i in range(1, q.size(1)):
            out = out + q[:, i]
        return out / math.sqrt(q.size(-1))


class Halves(nn.Module):
    def forward(self, x):
        a, b = torch.split(x, x.size(1) // 2, dim=1)
        return a * b


class Heads(nn.Module):
    def forward(self, x):
        return {"a": x * 2}


class Fine(nn.Module):
    def forward(self, x):
        if x.shape[1] > 100:
            return x * 2
        return x.view(x.size(0), -1)


class Scaled(nn.Module):
    def forward(self, q):
        return helpers.scale(q, q.size(-1))


class NoInputs(nn.Module):
    def forward(self, x):
        return x * float(x.shape[0])


class Dispatched(nn.Module):
    def forward(self, q):
        return getattr(helpers, "halve")(q, q.size(-1))
"""

HELPERS = """
import math


def scale(q, width):
    return q / math.sqrt(width)


def halve(q, width):
    return q * math.floor(width / 2)


OPS = {"halve": halve}
"""

EXAMPLES = """
import torch


def q4():
    return (torch.randn(2, 4, 8),)


def q6():
    return (torch.randn(2, 6, 16),)


def x8():
    return (torch.randn(2, 8),)


def x12():
    return (torch.randn(3, 12),)
"""

CONFIG = """
[tool.jitlint]
target = ["trace"]

[tool.jitlint.dynamic]
timeout = 900

[tool.jitlint.trace]
inputs = { "pkg.models:Attention" = "pkg.examples:q4", "pkg.models:Halves" = "pkg.examples:x8", "pkg.models:Heads" = "pkg.examples:x8", "pkg.models:Fine" = "pkg.examples:x8", "pkg.models:Scaled" = "pkg.examples:q4", "pkg.models:Dispatched" = "pkg.examples:q4" }
compare-inputs = { "pkg.models:Attention" = "pkg.examples:q6", "pkg.models:Halves" = "pkg.examples:x12", "pkg.models:Fine" = "pkg.examples:x12", "pkg.models:Scaled" = "pkg.examples:q6", "pkg.models:Dispatched" = "pkg.examples:q6" }
"""


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    root = write_project(tmp_path_factory.mktemp("traced"), {
        name: textwrap.dedent(text).lstrip() for name, text in {
            "pkg/__init__.py": "", "pkg/models.py": MODELS, "pkg/helpers.py": HELPERS, "pkg/examples.py": EXAMPLES,
            "pyproject.toml": CONFIG}.items()})
    done = run_jitlint("--no-cache", "--dynamic", "--output-format", "json", "pkg", cwd=root, timeout=1800)
    assert done.returncode in (0, 1), done.stderr
    return {(Path(f["filename"]).name, f["location"]["row"], f["code"]): f["confirmation"]
            for f in json.loads(done.stdout)}


@pytest.mark.torch
def test_findings_are_confirmed_by_what_torch_says(checked):
    # a TracerWarning at the finding's line
    assert checked[("models.py", 14, "TRC203")]["status"] == "confirmed"
    assert checked[("models.py", 30, "TRC201")]["status"] == "confirmed"
    # a warning torch's own filter hides (issued inside Tensor.split)
    split = checked[("models.py", 19, "TRC206")]
    assert split["status"] == "confirmed" and "hidden by torch's default filter" in split["detail"]
    # no warning for `range()`: the graph traced from the second inputs differs in the loop
    assert checked[("models.py", 12, "TRC202")]["status"] == "confirmed"
    # an error that names no line: the page's text
    assert checked[("models.py", 25, "TRC101")]["status"] == "confirmed"


@pytest.mark.torch
def test_without_inputs_a_finding_is_unverified(checked):
    status = checked[("models.py", 42, "TRC203")]
    assert status["status"] == "unverified" and "needs example inputs" in status["detail"]


@pytest.mark.torch
def test_what_no_rule_saw_is_reported(checked):
    """A helper in another file is followed statically (its finding confirmed); one reached through `getattr` is not,
    and torch warns there."""
    assert checked[("helpers.py", 5, "TRC203")]["status"] == "confirmed"
    assert checked[("helpers.py", 9, "TRC010")]["status"] == "confirmed"
    assert not [key for key in checked if key[2] == "TRC010" and key[0] == "models.py"]

"""What the dynamic checker's own ignoring causes is not the user's error.

The checker ignores a function torch failed in (`torch.jit.ignore`) and scripts again, to find more errors. Torch
2.13 builds an ignored function's stub from its Python signature *without the defaults*, so a call that leaves a
defaulted argument out then fails ("Argument max_ratio not provided."), an error the user's code, where the function
is compiled, does not have. For a method torch names the stub `lazy_bind...` (already treated as jitlint's artifact);
for a staticmethod or a free function it names it `Cls.name(...)` / `name(...)`: timm's
`RandomResizedCropToSequence.get_params` (a for-else, then the call at `naflex_transforms.py:705`) was reported as a
miss of its own. A function the *user* ignored and calls the same way is the user's error, and stays reported
(JIT438 finds it statically, and torch confirms it).
"""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.torch

SOURCE = '''
from typing import Optional, Tuple

import torch
import torch.nn as nn


def helper(x: torch.Tensor, steps: int = 3, limit: Optional[float] = None) -> torch.Tensor:
    for _ in range(steps):
        x = x + 1
    else:
        x = x * 2
    return x


class Crop(nn.Module):
    @staticmethod
    def get_params(x: torch.Tensor, scale: Tuple[float, float], attempts: int = 10,
                   max_ratio: Optional[float] = None) -> int:
        for _ in range(attempts):
            break
        else:
            return 0
        return 1

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n = self.get_params(x, scale=(0.5, 1.0), attempts=3)
        return helper(x, steps=n)


class Ignored(nn.Module):
    @torch.jit.ignore
    def get_params(self, x: torch.Tensor, attempts: int = 10) -> int:
        return attempts

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.get_params(x)
'''


@pytest.fixture(scope="module")
def findings(tmp_path_factory):
    root = tmp_path_factory.mktemp("stub")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "crop.py").write_text(textwrap.dedent(SOURCE).lstrip("\n"))
    (root / "pyproject.toml").write_text("[tool.jitlint.dynamic]\ntimeout = 60\n")
    result = subprocess.run([sys.executable, "-m", "jitlint", "check", "--dynamic", "--no-cache", "--output-format",
                             "json", "--exit-zero", "pkg"], cwd=root, capture_output=True, text=True, timeout=600)
    return json.loads(result.stdout)


def _rows(findings, code=None):
    return {f["location"]["row"] for f in findings if code is None or f["code"] == code}


def test_the_failing_bodies_are_found(findings):
    confirmed = {(f["code"], f["location"]["row"]) for f in findings if f["confirmation"]["status"] == "confirmed"}
    assert ("JIT110", 8) in confirmed and ("JIT110", 19) in confirmed, findings


def test_a_call_of_a_function_jitlint_ignored_is_no_miss(findings):
    # the call at line 26 leaves `max_ratio` out: fine while `get_params` is compiled, as in the user's code
    assert 26 not in _rows(findings, "JIT000"), findings


def test_a_call_of_a_function_the_user_ignored_is_still_reported(findings):
    located = [(f["code"], f["confirmation"]["status"]) for f in findings if f["location"]["row"] == 36]
    assert located == [("JIT438", "confirmed")], findings

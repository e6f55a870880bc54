"""A no-line error torch gives for every class that holds a faulty submodule is one defect, not one per class.

`-> Tuple[torch.tensor, torch.Tensor]` in a submodule's `forward` makes torch refuse the submodule and every class
that holds it, each time with "Can not create tuple with None type" and no line. The dynamic checker places those at
each scripted class's `class` line; the JIT241 finding at the annotation explains all of them.
"""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.torch

SOURCE = '''
from typing import Tuple

import torch
import torch.nn as nn


class Smooth(nn.Module):
    def forward(self, x: torch.Tensor) -> Tuple[torch.tensor, torch.Tensor]:
        y = x.cumsum(-1)
        return y, y[..., -1]


class Holder(nn.Module):
    def __init__(self):
        super().__init__()
        self.smooth = Smooth()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y, last = self.smooth(x)
        return y + last.unsqueeze(-1)
'''


def test_one_finding_explains_the_no_line_error_of_each_class_holding_it(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "smooth.py").write_text(textwrap.dedent(SOURCE))
    (tmp_path / "pyproject.toml").write_text("[tool.jitlint.dynamic]\ntimeout = 60\n")
    result = subprocess.run([sys.executable, "-m", "jitlint", "check", "--dynamic", "--no-cache", "--output-format",
                             "json", "--exit-zero", "pkg"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    findings = json.loads(result.stdout)
    located = {(Path(f["filename"]).name, f["location"]["row"], f["code"], f["confirmation"]["status"])
               for f in findings}
    assert ("smooth.py", 9, "JIT241", "confirmed") in located, findings
    assert not [f for f in findings if f["code"] == "JIT000"], findings

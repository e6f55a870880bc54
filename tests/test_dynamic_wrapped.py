"""Where the dynamic checker places torch's error in a method wrapped with `functools.wraps`.

Torch compiles the wrapped function's own source (it unwraps it), but its error names the *wrapper's* file with the
wrapped function's line number: `File "wrapping.py", line 13` for the `**kwargs` at line 13 of `wrapped.py`.
transformers wraps every layer's `forward` that way in `GradientCheckpointingLayer.__init_subclass__`, and the
agreement run placed seven of those errors at unrelated lines of `modeling_layers.py`. The worker now takes the
user file whose lines at that number are the ones torch shows.
"""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.torch

WRAPPING = '''
from functools import wraps

import torch.nn as nn


class Layer(nn.Module):
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        forward = cls.forward

        @wraps(forward)
        def wrapped(self, *args, **kwargs):
            return forward(self, *args, **kwargs)

        cls.forward = wrapped


def passthrough(func):
    @wraps(func)
    def wrapper(self, *args, **kwargs):
        return func(self, *args, **kwargs)

    return wrapper
'''

WRAPPED = '''
import torch
import torch.nn as nn

from pkg.wrapping import Layer, passthrough


class Block(Layer):
    def forward(
        self,
        x: torch.Tensor,
        scale: float = 1.0,
        **kwargs,
    ) -> torch.Tensor:
        return x * scale


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(2, 2)

    @passthrough
    def forward(self, x: torch.Tensor, *extra) -> torch.Tensor:
        return self.lin(x)
'''


@pytest.fixture(scope="module")
def findings(tmp_path_factory):
    root = tmp_path_factory.mktemp("wrapped")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "wrapping.py").write_text(textwrap.dedent(WRAPPING))
    (root / "pkg" / "wrapped.py").write_text(textwrap.dedent(WRAPPED))
    (root / "pyproject.toml").write_text("[tool.jitlint.dynamic]\ntimeout = 60\n")
    result = subprocess.run([sys.executable, "-m", "jitlint", "check", "--dynamic", "--no-cache", "--output-format",
                             "json", "--exit-zero", "pkg"], cwd=root, capture_output=True, text=True, timeout=600)
    return json.loads(result.stdout)


def test_torch_error_in_a_wrapped_method_lands_on_the_wrapped_line(findings):
    located = {(Path(f["filename"]).name, f["location"]["row"], f["code"], f["confirmation"]["status"])
               for f in findings}
    assert ("wrapped.py", 13, "JIT108", "confirmed") in located  # `**kwargs`, where torch's marker is
    assert ("wrapped.py", 24, "JIT108", "confirmed") in located  # `*extra`, through a decorator
    # nothing is placed in the wrapper's file, and torch reported nothing jitlint did not find
    assert not [f for f in findings if f["code"] == "JIT000"], findings

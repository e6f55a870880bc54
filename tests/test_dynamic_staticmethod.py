"""The dynamic checker compiles a staticmethod the way compiled code calling it does: as a free function.

When scripting a module stops at an error, the worker compiles each method on its own. It used
to build a method stub for a staticmethod too, which binds the module to the function's first parameter: torch then
reported "Module 'Embeddings' has no attribute 'size'" inside a staticmethod that `self.create_position_ids(x, ...)`
compiles fine (a JIT000 no code has; transformers' `RobertaEmbeddings` showed it in the agreement run). A real
error of such a staticmethod must still be reported (here `past=0` without an annotation, JIT201).
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.torch

SOURCE = '''
import torch
import torch.nn as nn


class Embeddings(nn.Module):
    def __init__(self):
        super().__init__()
        self.padding_idx = 1

    def forward(self, inputs_embeds: torch.Tensor, **kwargs) -> torch.Tensor:
        position_ids = self.create_position_ids(inputs_embeds, self.padding_idx)
        return self.shifted(inputs_embeds, self.padding_idx) + position_ids

    @staticmethod
    def create_position_ids(inputs_embeds, padding_idx: int):
        input_shape = inputs_embeds.size()[:-1]
        sequence_length = input_shape[1]
        position_ids = torch.arange(padding_idx + 1, sequence_length + padding_idx + 1, dtype=torch.long)
        return position_ids.unsqueeze(0).expand(input_shape)

    @staticmethod
    def shifted(input_ids, padding_idx: int, past=0):
        return input_ids + padding_idx + past
'''


@pytest.fixture(scope="module")
def findings(tmp_path_factory):
    root = tmp_path_factory.mktemp("static")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "emb.py").write_text(textwrap.dedent(SOURCE))
    (root / "pyproject.toml").write_text("[tool.jitlint.dynamic]\ntimeout = 60\n")
    # this checkout's jitlint, whatever the editable install points to
    src = str(Path(__file__).resolve().parents[1] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [src, os.environ.get("PYTHONPATH")]))}
    result = subprocess.run([sys.executable, "-m", "jitlint", "check", "--dynamic", "--no-cache", "--output-format",
                             "json", "--exit-zero", "pkg"], cwd=root, capture_output=True, text=True, timeout=600,
                            env=env)
    return json.loads(result.stdout)


def test_staticmethod_is_compiled_as_a_function(findings):
    located = {(Path(f["filename"]).name, f["location"]["row"], f["code"], f["confirmation"]["status"])
               for f in findings}
    assert ("emb.py", 11, "JIT108", "confirmed") in located  # `**kwargs`: scripting the module stops there
    assert ("emb.py", 23, "JIT201", "confirmed") in located  # the staticmethod's own error, still found
    assert not [f for f in findings if f["code"] == "JIT000"], findings  # no "has no attribute 'size'"

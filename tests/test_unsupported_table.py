"""The library functions of `jitlint/data/unsupported.toml` (kind "library-function") against torch: a module whose
forward calls each one is rejected by torch.jit.script, and JIT419 flags the call; a library that is not installed
is skipped with the reason."""

from __future__ import annotations

import importlib.util

import pytest

from conftest import codes_for, lint_files
from jitlint.apis import unsupported, verified_on
from oracles import oracle

# How each function is called: arguments of the right kinds, so that only compiling the function can fail.
CALLS = {
    "einops.rearrange": "(x, 'b c -> c b')",
    "einops.reduce": "(x, 'b c -> b', 'mean')",
    "einops.repeat": "(x, 'b c -> b c r', r=2)",
    "einops.einsum": "(x, x, 'b c, b c -> b')",
    "einops.pack": "([x, x], 'b *')[0]",
    "einops.unpack": "(x, [[1], [1]], 'b *')[0]",
    "einops.parse_shape": "(x, 'b c')['b'] * x",
    "einops.asnumpy": "(x)",
}


def source(name: str) -> str:
    module, _, function = name.rpartition(".")
    return (f"import torch\nimport torch.nn as nn\nfrom {module} import {function}\n\n\n"
            f"class M(nn.Module):\n    def forward(self, x):\n        return {function}{CALLS[name]}\n")


def test_every_library_function_has_a_call_and_a_verified_version():
    assert set(CALLS) == set(unsupported("library-function"))
    assert "2.13.0" in verified_on("library-function")


@pytest.mark.parametrize("name", sorted(unsupported("library-function")))
def test_jitlint_flags_the_call(name, tmp_path):
    findings = lint_files({"m.py": source(name)}, tmp_path, codes=codes_for("script"))
    assert [(f.code, f.location.row) for f in findings] == [("JIT419", 8)]


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(unsupported("library-function")))
def test_torch_rejects_the_call(name, tmp_path):
    if importlib.util.find_spec(name.split(".")[0]) is None:
        pytest.skip(f"{name.split('.')[0]} is not installed")
    verdict = oracle("script").run(source(name), tmp_path)
    assert verdict.rejected, verdict.describe()

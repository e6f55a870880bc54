"""The library functions and classes of `jitlint/data/unsupported.toml` (kinds "library-function" and
"library-class") against torch: a module whose forward calls each one is rejected by torch.jit.script, and JIT419
flags the call; a library that is not installed is skipped with the reason."""

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


# A class is compiled where compiled code builds it, before its arguments are matched: a Tensor is enough.
CLASS_CALL = "(x).mean"


def source(name: str) -> str:
    module, _, function = name.rpartition(".")
    call = CALLS.get(name, CLASS_CALL)
    return (f"import torch\nimport torch.nn as nn\nfrom {module} import {function}\n\n\n"
            f"class M(nn.Module):\n    def forward(self, x):\n        return {function}{call}\n")


LIBRARY = sorted(unsupported("library-function") | unsupported("library-class"))


def test_every_library_function_has_a_call_and_a_verified_version():
    assert set(CALLS) == set(unsupported("library-function"))
    assert "2.13.0" in verified_on("library-function")
    assert "2.13.0" in verified_on("library-class")


@pytest.mark.parametrize("name", LIBRARY)
def test_jitlint_flags_the_call(name, tmp_path):
    findings = lint_files({"m.py": source(name)}, tmp_path, codes=codes_for("script"))
    assert [(f.code, f.location.row) for f in findings] == [("JIT419", 8)]


@pytest.mark.torch
@pytest.mark.parametrize("name", LIBRARY)
def test_torch_rejects_the_call(name, tmp_path):
    if importlib.util.find_spec(name.split(".")[0]) is None:
        pytest.skip(f"{name.split('.')[0]} is not installed")
    verdict = oracle("script").run(source(name), tmp_path)
    assert verdict.rejected, verdict.describe()

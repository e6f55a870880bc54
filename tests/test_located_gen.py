"""Located misses in libraries beyond timm, torchvision and transformers: each case is
linted with jitlint and scripted with torch 2.13 (`@pytest.mark.torch`), and they must agree, as in
tests/test_located.py.

A line marked `# rejects JITnnn` is where torch 2.13 reports its error: jitlint must report there with that code and
torch must reject the program at that line. A case without a mark must script, and jitlint must report no error
and none of the codes these cases are about.
"""

import textwrap

import pytest

from test_located import lint_agrees, torch_agrees

HEADER = """\
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F

"""

CODES = ("JIT202", "JIT240", "JIT241")


def case(source: str) -> str:
    return HEADER + textwrap.dedent(source)


UP = """
    class Up(nn.Module):
        def forward(self, x, size=None):
            if size is not None:
                return x * size
            return x
"""

def with_up(source: str) -> str:
    return HEADER + textwrap.dedent(UP) + textwrap.dedent(source)


CASES = {
    # -- JIT202: an unannotated parameter with a `None` default is a Tensor (`Tensor size=None`) ------------------
    "none-default-given-a-list-by-a-submodule-call": with_up("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.up = Up()

            def forward(self, x):
                in_size = x.shape[2:]
                return self.up(x, in_size)  # rejects JIT202
    """),
    "none-default-given-a-str-keyword": case("""
        class Spec(nn.Module):
            def forward(self, x, output_format=None):
                return x

        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.stft = Spec()

            def forward(self, x):
                return self.stft(x, output_format="Magnitude")  # rejects JIT202
    """),
    "none-default-of-a-function-given-an-int": case("""
        def rfft(x, n=None):
            return x

        class M(nn.Module):
            def forward(self, x):
                return rfft(x, 1)  # rejects JIT202
    """),
    "none-default-given-none-explicitly": with_up("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.up = Up()

            def forward(self, x):
                return self.up(x, None)  # rejects JIT202
    """),
    "no-default-given-none": case("""
        def scale(x, s):
            return x * s

        class M(nn.Module):
            def forward(self, x):
                return scale(x, None)  # rejects JIT202
    """),
    "module-training-flag-to-an-unannotated-parameter": case("""
        def default(val, d):
            return val if val is not None else d

        class M(nn.Module):
            def forward(self, x):
                flag = default(x, self.training)  # rejects JIT202
                return x
    """),
    # look-alikes that script
    "none-default-given-a-tensor": with_up("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.up = Up()

            def forward(self, x):
                return self.up(x, x)
    """),
    "none-default-omitted-by-the-root": with_up("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.up = Up()

            def forward(self, x):
                return self.up(x, x.sum())
    """),
    "none-default-annotated": case("""
        class Up2(nn.Module):
            def forward(self, x, size: Optional[List[int]] = None):
                return x

        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.up = Up2()

            def forward(self, x):
                return self.up(x, x.shape[2:])
    """),
    "none-default-of-an-ignored-function": case("""
        @torch.jit.ignore
        def show(x, note=None):
            return x

        class M(nn.Module):
            def forward(self, x):
                return show(x, x)
    """),
    "optional-refined-before-the-call": case("""
        def scale(x, s=None):
            return x

        class M(nn.Module):
            def forward(self, x, m: Optional[torch.Tensor] = None):
                if m is not None:
                    return scale(x, m)
                return x
    """),
    "training-flag-to-an-annotated-parameter": case("""
        def default(val: Optional[bool], d: bool) -> bool:
            return val if val is not None else d

        class M(nn.Module):
            def forward(self, x):
                flag = default(None, self.training)
                return x
    """),
    # -- JIT240: `//=` and `@=` ------------------------------------------------------------------------------------
    "floordiv-augassign-on-an-int": case("""
        class M(nn.Module):
            def forward(self, x):
                hop = x.shape[-1]
                hop //= 2  # rejects JIT240
                return x[..., :hop]
    """),
    "floordiv-augassign-on-a-tensor": case("""
        class M(nn.Module):
            def forward(self, x):
                x //= 2  # rejects JIT240
                return x
    """),
    "floordiv-augassign-on-a-list-item": case("""
        class M(nn.Module):
            def forward(self, x, sizes: List[int]):
                sizes[0] //= 2  # rejects JIT240
                return x
    """),
    "matmul-augassign": case("""
        class M(nn.Module):
            def forward(self, x):
                x @= x  # rejects JIT240
                return x
    """),
    "floordiv-augassign-in-a-pruned-branch": case("""
        class M(nn.Module):
            def forward(self, x):
                hop = x.shape[-1]
                if not torch.jit.is_scripting():
                    hop //= 2  # rejects JIT240
                return x[..., :hop]
    """),
    # look-alikes that script
    "floordiv-assignment": case("""
        class M(nn.Module):
            def forward(self, x):
                hop = x.shape[-1]
                hop = hop // 2
                return x[..., :hop]
    """),
    "other-augmented-assignments": case("""
        class M(nn.Module):
            def forward(self, x):
                hop = x.shape[-1]
                hop += 2
                hop -= 1
                hop *= 3
                scale = 2.0
                scale **= 2.0
                x /= scale
                return x[..., :hop]
    """),
    "floordiv-augassign-outside-compiled-code": case("""
        class M(nn.Module):
            def __init__(self, size: int = 8):
                super().__init__()
                size //= 2
                self.size = size

            def forward(self, x):
                return x[..., :self.size]
    """),
    # -- JIT241: `torch.tensor` (the function) as a type ----------------------------------------------------------
    "tensor-function-as-a-parameter-type": case("""
        class M(nn.Module):
            def forward(self, x: torch.tensor):  # rejects JIT241
                return x
    """),
    "tensor-function-in-an-optional": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor, m: Optional[torch.tensor] = None):  # rejects JIT241
                return x
    """),
    "tensor-function-in-a-local-annotation": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor):
                y: torch.tensor = x * 2  # rejects JIT241
                return y
    """),
    "tensor-function-as-a-string-annotation": case("""
        class M(nn.Module):
            def forward(self, x: "torch.tensor"):  # rejects JIT241
                return x
    """),
    # look-alikes that script
    "tensor-type-annotations": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
                y: torch.Tensor = torch.tensor([1.0]) + x
                return y, None
    """),
    "tensor-function-in-a-method-torch-does-not-compile": case("""
        class M(nn.Module):
            def describe(self, x: torch.tensor) -> str:
                return str(x.shape)

            def forward(self, x: torch.Tensor):
                return x
    """),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_jitlint_agrees(name, lint_source):
    lint_agrees(name, CASES[name], lint_source, CODES)


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(CASES))
def test_torch_agrees(name, tmp_path):
    torch_agrees(name, CASES[name], tmp_path)

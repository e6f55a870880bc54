"""A checklist of "TorchScript's typing, not Python's": for each item, minimal programs that torch 2.13
scripts or rejects, and jitlint must agree with torch on every one.

A case is one module's source. A line marked `# rejects` is where torch 2.13 reports its error: jitlint must report
an error there (in the same simple statement or compound statement header), and torch must reject the program at
that line. A case without a mark must script, and jitlint must report no error on it.

Items the rule pages already cover (verified by tests/test_pages.py): `# type:` comments (JIT211), `_overload`
(JIT214), `Dict`/`List` without contained types (JIT213), integer constants out of range (JIT212),
`hasattr(self, ...)` (JIT417), range/enumerate arguments (JIT418), Optional refinement (JIT704), function-valued
parameters (JIT430), list-literal typing (JIT221, JIT416). A module container zipped with a list or a `range()`
is main's JIT315 (its page).
"""

import re
import textwrap

import pytest

from oracles import points_at
from oracles.script import script_source

HEADER = """\
import enum
import math
import typing
from typing import Any, Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F

"""


def case(source: str) -> str:
    return HEADER + textwrap.dedent(source)


CASES = {
    # -- typing.cast ------------------------------------------------------------------------------------------------
    "cast-to-tensor": case("""
        class M(nn.Module):
            def forward(self, x: Optional[torch.Tensor]):
                y = typing.cast(torch.Tensor, x)  # rejects
                return y
    """),
    "cast-int": case("""
        class M(nn.Module):
            def forward(self, x, n: int):
                return x * typing.cast(int, n)  # rejects
    """),
    "cast-from-typing": case("""
        from typing import cast

        class M(nn.Module):
            def forward(self, x):
                return cast(torch.Tensor, x) + 1  # rejects
    """),
    # -- zip / enumerate over module containers ----------------------------------------------------------------------
    "enumerate-modulelist": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])

            def forward(self, x):
                for i, layer in enumerate(self.layers):
                    x = layer(x) * i
                return x
    """),
    "zip-two-modulelists": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.a = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
                self.b = nn.ModuleList([nn.ReLU() for _ in range(3)])

            def forward(self, x):
                for f, g in zip(self.a, self.b):
                    x = g(f(x))
                return x
    """),
    "zip-enumerate-and-modulelist": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.a = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
                self.b = nn.ModuleList([nn.ReLU() for _ in range(3)])

            def forward(self, x):
                for (i, f), g in zip(enumerate(self.a), self.b):
                    x = g(f(x)) * i
                return x
    """),
    "enumerate-sequential": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.seq = nn.Sequential(nn.Linear(4, 4), nn.ReLU())

            def forward(self, x):
                for i, m in enumerate(self.seq):
                    x = m(x) + i
                return x
    """),
    # -- .item() where an int is required ---------------------------------------------------------------------------
    "item-in-range": case("""
        class M(nn.Module):
            def forward(self, x):
                for i in range(x.sum().item()):  # rejects
                    x = x + i
                return x
    """),
    "int-of-item-in-range": case("""
        class M(nn.Module):
            def forward(self, x):
                for i in range(int(x.sum().item())):
                    x = x + i
                return x
    """),
    "item-in-arithmetic": case("""
        class M(nn.Module):
            def forward(self, x):
                return x * x.max().item() + 1
    """),
    "item-annotated-int": case("""
        class M(nn.Module):
            def forward(self, x):
                n: int = x.sum().item()  # rejects
                return x * n
    """),
    "item-through-variable-annotated-float": case("""
        class M(nn.Module):
            def forward(self, x):
                n = x.sum().item()
                k: float = n  # rejects
                return x * k
    """),
    "item-as-size-index-and-int-parameter": case("""
        def times(n: int) -> int:
            return n * 2

        class M(nn.Module):
            def forward(self, x, xs: List[int]):
                n = x.sum().item()
                y = x.view(n, -1)[: x.sum().item()]
                return y * xs[x.argmax().item()] * times(x.sum().item())
    """),
    "item-returned-as-int": case("""
        class M(nn.Module):
            def forward(self, x) -> int:
                return x.sum().item()
    """),
    # -- an attribute that is None after __init__: torch folds `if self.x is not None:` -----------------------------
    "none-attribute-pruned": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = None

            def forward(self, x):
                if self.proj is not None:
                    x = self.proj(x, 3, "any")
                return x
    """),
    "none-attribute-pruned-else": case("""
        class M(nn.Module):
            def __init__(self, use_norm: bool = False):
                super().__init__()
                self.norm = nn.LayerNorm(4) if use_norm else None

            def forward(self, x):
                if self.norm is None:
                    return x
                return self.norm(x).undefined_method()
    """),
    "none-attribute-in-and": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.gate = None

            def forward(self, x):
                if self.gate is not None and self.training:
                    x = self.gate(x)
                return x
    """),
    "none-attribute-conditional-in-init": case("""
        class M(nn.Module):
            def __init__(self, norm_layer=None):
                super().__init__()
                self.norm = norm_layer(4) if norm_layer else None

            def forward(self, x):
                if self.norm is None:
                    return x
                return self.norm(x, 1, 2)
    """),
    "none-attribute-if-expression": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = None
                self.bias = None

            def forward(self, x):
                x = self.proj(x, 5) if self.proj is not None else x
                return x if self.bias is None else x + self.bias.expand(3)
    """),
    "none-attribute-in-or-early-exit": case("""
        class M(nn.Module):
            def __init__(self, use: bool = False):
                super().__init__()
                self.drop = nn.Dropout(0.1) if use else None

            def forward(self, x):
                if not self.training or self.drop is None:
                    return x
                return self.drop(x, 3)
    """),
    "none-attribute-truth-test": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.act = None

            def forward(self, x):
                if self.act:  # rejects
                    x = self.act(x)
                return x
    """),
    # -- module-level constants read in compiled code -------------------------------------------------------------
    "global-int": case("""
        SCALE = 2

        class M(nn.Module):
            def forward(self, x):
                return x.mean() * SCALE  # rejects
    """),
    "global-float": case("""
        EPS = 1e-5

        class M(nn.Module):
            def forward(self, x):
                return x.mean() + EPS  # rejects
    """),
    "global-final-in-class": case("""
        class M(nn.Module):
            scale: Final[int] = 2

            def forward(self, x):
                return x.mean() * self.scale
    """),
    "global-str": case("""
        MODE = "mean"

        class M(nn.Module):
            def forward(self, x):
                if MODE == "mean":  # rejects
                    return x.mean()
                return x
    """),
    "global-bool": case("""
        FLAG = True

        class M(nn.Module):
            def forward(self, x):
                if FLAG:  # rejects
                    return x.mean()
                return x
    """),
    "global-tuple": case("""
        SIZES = (2, 2)

        class M(nn.Module):
            def forward(self, x):
                return x.view(SIZES[0], -1) * SIZES[1]  # rejects
    """),
    "global-none": case("""
        DEFAULT = None

        class M(nn.Module):
            def forward(self, x):
                if DEFAULT is None:  # rejects
                    return x
                return x + 1
    """),
    "global-math-pi": case("""
        class M(nn.Module):
            def forward(self, x):
                return x * math.pi + math.e
    """),
    "global-enum": case("""
        class Color(enum.Enum):
            RED = 1
            GREEN = 2

        class M(nn.Module):
            def forward(self, x):
                if Color.RED.value == 1:
                    return x
                return x + 1
    """),
    "global-list": case("""
        SIZES = [2, 2]

        class M(nn.Module):
            def forward(self, x):
                return x * SIZES[0]  # rejects
    """),
    "global-dict": case("""
        TABLE = {"a": 1}

        class M(nn.Module):
            def forward(self, x):
                return x * TABLE["a"]  # rejects
    """),
    "global-torch-dtype": case("""
        DTYPE = torch.float16

        class M(nn.Module):
            def forward(self, x):
                return x.to(DTYPE)  # rejects
    """),
    # -- the return type of an unannotated @torch.jit.ignore function ---------------------------------------------
    "ignore-returns-tensor-by-default": case("""
        class M(nn.Module):
            @torch.jit.ignore
            def helper(self, x):
                return x.numpy()

            def forward(self, x):
                return self.helper(x) + 1
    """),
    "ignore-result-used-as-int": case("""
        class M(nn.Module):
            @torch.jit.ignore
            def count(self, x):
                return int(x.numel())

            def forward(self, x):
                for i in range(self.count(x)):  # rejects
                    x = x + i
                return x
    """),
    "ignore-result-annotated-variable": case("""
        class M(nn.Module):
            @torch.jit.ignore
            def count(self, x):
                return int(x.numel())

            def forward(self, x):
                n: int = self.count(x)  # rejects
                return x * n
    """),
    "unused-result-compared-with-str": case("""
        class M(nn.Module):
            @torch.jit.unused
            def mode(self, x):
                return "mean"

            def forward(self, x):
                if self.mode(x) == "mean":  # rejects
                    return x.mean()
                return x
    """),
    "ignore-result-as-size": case("""
        class M(nn.Module):
            @torch.jit.ignore
            def count(self, x):
                return int(x.numel())

            def forward(self, x):
                return x.view(self.count(x), -1) + self.count(x)
    """),
    "ignore-annotated-int": case("""
        class M(nn.Module):
            @torch.jit.ignore
            def count(self, x) -> int:
                return int(x.numel())

            def forward(self, x):
                for i in range(self.count(x)):
                    x = x + i
                return x
    """),
    # -- attributes set but not declared ---------------------------------------------------------------------------
    "attribute-set-only-in-forward": case("""
        class M(nn.Module):
            def forward(self, x):
                self.cache = x  # rejects
                return x
    """),
    "attribute-declared-in-init-then-set": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.count = 0

            def forward(self, x):
                self.count = self.count + 1
                return x
    """),
    "attribute-read-never-set": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.factor = 2.0

            def forward(self, x):
                return x * self.scale  # rejects
    """),
    "attribute-read-under-hasattr": case("""
        class M(nn.Module):
            def forward(self, x):
                if hasattr(self, "scale"):
                    return x * self.scale
                return x
    """),
    "attribute-read-is-property": case("""
        class M(nn.Module):
            @property
            def scale(self) -> float:
                return 2.0

            def forward(self, x):
                return x * self.scale
    """),
    # -- function-valued parameters --------------------------------------------------------------------------------
    "activation-parameter-called": case("""
        class M(nn.Module):
            def forward(self, x, activation=None):
                if activation is not None:
                    x = activation(x)  # rejects
                return x
    """),
    "activation-function-default": case("""
        def block(x, fn=F.relu):
            return fn(x)  # rejects

        class M(nn.Module):
            def forward(self, x):
                return block(x)
    """),
    "activation-submodule": case("""
        class M(nn.Module):
            def __init__(self, act_layer=nn.ReLU):
                super().__init__()
                self.act = act_layer()

            def forward(self, x):
                return self.act(x)
    """),
    "activation-rebound-parameter": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.relu = nn.ReLU()

            def forward(self, x, act: Optional[torch.Tensor] = None):
                y = x if act is None else act
                return self.relu(y)
    """),
    # -- list displays of mixed element types ----------------------------------------------------------------------
    "pad-mixed-list-variable": case("""
        class M(nn.Module):
            def forward(self, x, m, maxlen):
                pad = [0, 0, maxlen - m.size(2), 0]
                return F.pad(x, pad)  # rejects
    """),
    "pad-int-list": case("""
        class M(nn.Module):
            def forward(self, x, maxlen: int):
                pad = [0, 0, maxlen - x.size(2), 0]
                return F.pad(x, pad)
    """),
    "mixed-list-not-passed": case("""
        class M(nn.Module):
            def forward(self, x, n):
                y = [1, n]
                return x
    """),
    "optional-list-to-int-list": case("""
        class M(nn.Module):
            def forward(self, x):
                size = [x.size(0), None]
                return x.view(size)  # rejects
    """),
    "annotated-list-of-optional": case("""
        class M(nn.Module):
            def forward(self, x):
                y: List[Optional[int]] = [1, None]
                return x
    """),
    "annotated-float-list-of-ints": case("""
        class M(nn.Module):
            def forward(self, x):
                y: List[float] = [1, 2]  # rejects
                return x * y[0]
    """),
    "returned-list-of-mixed": case("""
        class M(nn.Module):
            def forward(self, x, n) -> List[int]:
                return [1, n]  # rejects
    """),
    # -- `is None` of a parameter whose type cannot be None: torch folds it and compiles one branch only ----------
    "is-none-of-unannotated-none-default": case("""
        class M(nn.Module):
            def forward(self, x, size=None):
                if size is None:
                    return tuple(s * 2 for s in x.shape[2:])[0] * x
                return x
    """),
    "is-not-none-of-int": case("""
        class M(nn.Module):
            def forward(self, x, n: int):
                if n is not None:
                    return x
                return tuple(s * 2 for s in x.shape[2:])[0] * x
    """),
    "none-is-list": case("""
        class M(nn.Module):
            def forward(self, x, ks: List[int]):
                if None is ks:
                    return tuple(s * 2 for s in x.shape[2:])[0] * x
                return x
    """),
    "is-none-through-a-helper": case("""
        class M(nn.Module):
            def forward(self, x, size=None):
                out = self.calc(x) if size is None else size
                return out

            def calc(self, x):
                return tuple(s * 2 for s in x.shape[2:])
    """),
    "is-none-of-optional-stays-compiled": case("""
        class M(nn.Module):
            def forward(self, x, size: Optional[torch.Tensor] = None):
                if size is None:
                    return tuple(s * 2 for s in x.shape[2:])[0] * x  # rejects
                return x
    """),
}


def marked_row(source: str) -> int | None:
    rows = [n for n, line in enumerate(source.splitlines(), 1) if re.search(r"#\s*rejects\b", line)]
    assert len(rows) <= 1
    return rows[0] if rows else None


@pytest.mark.parametrize("name", sorted(CASES))
def test_jitlint_agrees(name, lint_source):
    source = CASES[name]
    row = marked_row(source)
    errors = [f for f in lint_source(source) if f.severity == "error"]
    if row is None:
        assert [(f.code, f.location.row, f.message) for f in errors] == []
    else:
        assert any(f.location.row == row for f in errors), [(f.code, f.location.row) for f in errors]


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(CASES))
def test_torch_agrees(name, tmp_path):
    source = CASES[name]
    row = marked_row(source)
    result = script_source(source, tmp_path)
    if row is None:
        assert result.ok, f"{name}: {result}\n{result.message_full}"
    else:
        assert result.rejected, f"{name}: torch.jit.script must reject it, but it {result}"
        assert points_at(result, source, row), f"{name}: marked line {row}, but torch {result}"

"""Located misses: lines torch names in user code that jitlint used to miss. Each case is linted with
jitlint and scripted with torch 2.13 (`@pytest.mark.torch`); they must agree.

A line marked `# rejects` is where torch 2.13 reports its error (the module built with its default arguments):
jitlint must report there with the code named after the mark (`# rejects JIT232`), at the severity its rule
has, and torch must reject the program at that line. A case without a mark must script, and jitlint must report
neither an error nor the codes these cases are about.
"""

import re
import textwrap

import pytest

from torch_oracle import points_at, script_source

HEADER = """\
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F

"""

CODES = ("JIT232", "JIT233", "JIT124", "JIT414", "JIT701", "JIT707", "JIT221", "JIT416", "JIT202", "JIT234", "JIT222")


def case(source: str) -> str:
    return HEADER + textwrap.dedent(source)


CASES = {
    # -- JIT221: a local declared Optional, assigned only under a run-time test, as a value of a typed dict display --
    "optional-local-in-returned-dict": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.drop = nn.Dropout(0.1)

            def forward(self, x: torch.Tensor) -> Dict[str, torch.Tensor]:
                keep: Optional[torch.Tensor] = None
                if self.training and x.size(0) > 1:
                    x, keep = self.drop(x), x.argsort(dim=1)
                return {  # rejects JIT221
                    'x': x,
                    'keep': keep,
                }
    """),
    "optional-local-assigned-on-every-path": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor) -> Dict[str, torch.Tensor]:
                keep: Optional[torch.Tensor] = None
                if x.size(0) > 1:
                    keep = x + 1
                else:
                    keep = x
                return {'x': x, 'keep': keep}
    """),
    "optional-local-refined": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor) -> Dict[str, torch.Tensor]:
                keep: Optional[torch.Tensor] = None
                if self.training:
                    keep = x + 1
                if keep is None:
                    keep = x
                return {'x': x, 'keep': keep}
    """),
    "optional-local-rebound-in-its-block": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor) -> Dict[str, torch.Tensor]:
                keep: Optional[torch.Tensor] = None
                keep = x * 2
                return {'x': x, 'keep': keep}
    """),
    "optional-local-in-optional-dict": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor) -> Dict[str, Optional[torch.Tensor]]:
                keep: Optional[torch.Tensor] = None
                if self.training:
                    keep = x + 1
                return {'x': x, 'keep': keep}
    """),
    # -- JIT222: an abstract `forward` with a `pass` or docstring body under a non-None return annotation --------------
    "stub-forward-pass": case("""
        class ExtraBlock(nn.Module):
            def forward(  # rejects JIT222
                self,
                results: List[torch.Tensor],
                names: List[str],
            ) -> Tuple[List[torch.Tensor], List[str]]:
                \"\"\"Subclasses add results.\"\"\"
                pass
    """),
    "stub-forward-docstring": case("""
        class Base(nn.Module):
            def forward(self, x: torch.Tensor) -> torch.Tensor:  # rejects JIT222
                \"\"\"Implemented by subclasses.\"\"\"
    """),
    "stub-forward-returns-none": case("""
        class Base(nn.Module):
            def forward(self, x: torch.Tensor) -> None:
                pass
    """),
    "stub-forward-unannotated": case("""
        class Base(nn.Module):
            def forward(self, x: torch.Tensor):
                pass
    """),
    "stub-unused-helper": case("""
        class M(nn.Module):
            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return self.helper(x)

            @torch.jit.unused
            def helper(self, x: torch.Tensor) -> torch.Tensor:
                pass
    """),
    # -- JIT232: an attribute `__init__` sets only under an `if` ------------------------------------------------------
    "flag-unset-by-default": case("""
        class M(nn.Module):
            def __init__(self, c: int = 4, normalize: bool = False):
                super().__init__()
                self.normalize = normalize
                if self.normalize:
                    self.bn = nn.BatchNorm2d(c)

            def forward(self, x):
                if self.normalize:
                    x = self.bn(x)  # rejects JIT232
                return x
    """),
    "flag-from-computed-value": case("""
        class M(nn.Module):
            def __init__(self, padding=1):
                super().__init__()
                self.use_pad = isinstance(padding, (list, tuple)) and len(padding) == 4
                if self.use_pad:
                    self.pad = nn.ZeroPad2d(padding=padding)

            def forward(self, x):
                if self.use_pad:
                    x = self.pad(x)  # rejects JIT232
                return x
    """),
    "parameter-under-flag": case("""
        class M(nn.Module):
            def __init__(self, dim: int = 4, use_rel_pos: bool = False):
                super().__init__()
                self.use_rel_pos = use_rel_pos
                if self.use_rel_pos:
                    self.rel_pos_h = nn.Parameter(torch.zeros(3, dim))

            def forward(self, x):
                if self.use_rel_pos:
                    x = x + self.rel_pos_h.sum()  # rejects JIT232
                return x
    """),
    "elif-chain-without-else": case("""
        class M(nn.Module):
            def __init__(self, kind: str = "none"):
                super().__init__()
                self.kind = kind
                if kind == "relu":
                    self.act = nn.ReLU()
                elif kind == "gelu":
                    self.act = nn.GELU()

            def forward(self, x):
                if self.kind != "none":
                    x = self.act(x)  # rejects JIT232
                return x
    """),
    "else-sets-none": case("""
        class M(nn.Module):
            def __init__(self, c: int = 4, normalize: bool = False):
                super().__init__()
                if normalize:
                    self.bn = nn.BatchNorm2d(c)
                else:
                    self.bn = None

            def forward(self, x):
                if self.bn is not None:
                    x = self.bn(x)
                return x
    """),
    "else-sets-identity": case("""
        class M(nn.Module):
            def __init__(self, c: int = 4, normalize: bool = False):
                super().__init__()
                self.normalize = normalize
                if normalize:
                    self.bn = nn.BatchNorm2d(c)
                else:
                    self.bn = nn.Identity()

            def forward(self, x):
                if self.normalize:
                    x = self.bn(x)
                return x
    """),
    "set-before-the-if": case("""
        class M(nn.Module):
            def __init__(self, c: int = 4, normalize: bool = False):
                super().__init__()
                self.normalize = normalize
                self.bn = nn.Identity()
                if normalize:
                    self.bn = nn.BatchNorm2d(c)

            def forward(self, x):
                if self.normalize:
                    x = self.bn(x)
                return x
    """),
    "flag-true-by-default": case("""
        class M(nn.Module):
            def __init__(self, c: int = 4, normalize: bool = True):
                super().__init__()
                self.normalize = normalize
                if normalize:
                    self.bn = nn.BatchNorm2d(c)

            def forward(self, x):
                if self.normalize:
                    x = self.bn(x)  # warns JIT232
                return x
    """),
    "final-flag-pruned": case("""
        class M(nn.Module):
            use_bn: Final[bool]

            def __init__(self, use_bn: bool = False):
                super().__init__()
                self.use_bn = use_bn
                if use_bn:
                    self.bn = nn.BatchNorm2d(4)

            def forward(self, x):
                if self.use_bn:
                    x = self.bn(x)
                return x
    """),
    "constants-flag-pruned": case("""
        class M(nn.Module):
            __constants__ = ["use_bn"]

            def __init__(self, use_bn: bool = False):
                super().__init__()
                self.use_bn = use_bn
                if use_bn:
                    self.bn = nn.BatchNorm2d(4)

            def forward(self, x):
                if self.use_bn:
                    x = self.bn(x)
                return x
    """),
    "hasattr-guard": case("""
        class M(nn.Module):
            def __init__(self, use_bn: bool = False):
                super().__init__()
                if use_bn:
                    self.bn = nn.BatchNorm2d(4)

            def forward(self, x):
                if hasattr(self, "bn"):
                    x = self.bn(x)
                return x
    """),
    "hasattr-raise-first": case("""
        class M(nn.Module):
            def __init__(self, cross: bool = False):
                super().__init__()
                if cross:
                    self.cross = nn.Linear(4, 4)
                    self.ln_cross = nn.LayerNorm(4)

            def forward(self, x, y: Optional[torch.Tensor] = None):
                if y is not None:
                    if not hasattr(self, "cross"):
                        raise ValueError("built without cross-attention")
                    y = self.ln_cross(y)
                    x = self.cross(y)
                return x
    """),
    "other-attribute-none-test": case("""
        class M(nn.Module):
            def __init__(self, separate: bool = False):
                super().__init__()
                if separate:
                    self.q = nn.Linear(4, 4)
                    self.qkv = None
                else:
                    self.qkv = nn.Linear(4, 4)

            def forward(self, x):
                if self.qkv is None:
                    return self.q(x)
                return self.qkv(x)
    """),
    "else-raises": case("""
        class M(nn.Module):
            def __init__(self, kind: str = "relu"):
                super().__init__()
                self.kind = kind
                if kind == "relu":
                    self.act = nn.ReLU()
                else:
                    raise ValueError(kind)

            def forward(self, x):
                if self.kind == "relu":
                    x = self.act(x)
                return x
    """),
    "else-asserts-false": case("""
        class M(nn.Module):
            def __init__(self, kind: str = "relu"):
                super().__init__()
                self.kind = kind
                if kind == "relu":
                    self.act = nn.ReLU()
                else:
                    assert False, kind

            def forward(self, x):
                if self.kind == "relu":
                    x = self.act(x)
                return x
    """),
    "two-complementary-ifs": case("""
        class M(nn.Module):
            def __init__(self, normalize: bool = False):
                super().__init__()
                self.normalize = normalize
                if normalize:
                    self.bn = nn.BatchNorm2d(4)
                if not normalize:
                    self.bn = nn.Identity()

            def forward(self, x):
                if self.normalize:
                    x = self.bn(x)
                return x
    """),
    "set-by-a-helper-method": case("""
        class M(nn.Module):
            def __init__(self, normalize: bool = False):
                super().__init__()
                self.normalize = normalize
                if normalize:
                    self.bn = nn.BatchNorm2d(4)
                self._finish()

            def _finish(self):
                if not self.normalize:
                    self.bn = nn.Identity()

            def forward(self, x):
                if self.normalize:
                    x = self.bn(x)
                return x
    """),
    "registered-buffer": case("""
        class M(nn.Module):
            def __init__(self, use_scale: bool = False):
                super().__init__()
                self.use_scale = use_scale
                if use_scale:
                    self.scale = nn.Parameter(torch.ones(1))
                else:
                    self.register_buffer("scale", torch.ones(1))

            def forward(self, x):
                if self.use_scale:
                    x = x * self.scale
                return x
    """),
    # -- torch.finfo / torch.iinfo (JIT414) ---------------------------------------------------------------------------
    "finfo-in-forward": case("""
        class M(nn.Module):
            def forward(self, x):
                return x.clamp(min=torch.finfo(x.dtype).min)  # rejects JIT414
    """),
    "iinfo-in-forward": case("""
        class M(nn.Module):
            def forward(self, x):
                return x.clamp(max=torch.iinfo(torch.int32).max)  # rejects JIT414
    """),
    "finfo-in-init": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.low = float(torch.finfo(torch.float32).min)

            def forward(self, x):
                return x.clamp(min=self.low)
    """),
    # -- methods of lists (JIT233) ----------------------------------------------------------------------------------
    "list-numel": case("""
        class M(nn.Module):
            def forward(self, x, feat_shape: List[int]):
                return x.reshape(feat_shape.numel(), -1)  # rejects JIT233
    """),
    "shape-size": case("""
        class M(nn.Module):
            def forward(self, x):
                s = x.shape
                return x.view(s.size(0), -1)  # rejects JIT233
    """),
    "list-count-and-index": case("""
        class M(nn.Module):
            def forward(self, x, feat_shape: List[int]):
                return x.reshape(feat_shape.count(2) + feat_shape.index(feat_shape[0]), -1)
    """),
    "int-list-sum": case("""
        class M(nn.Module):
            def forward(self, x, feat_shape: List[int]):
                return x.reshape(feat_shape.sum(), -1)
    """),
    "tensor-list-pop": case("""
        class M(nn.Module):
            def forward(self, xs: List[torch.Tensor]):
                last = xs.pop()
                xs.append(last)
                xs.reverse()
                return xs[0]
    """),
    # -- tuple() of a value typed as a list (JIT124) ------------------------------------------------------------------
    "tuple-of-shape-slice": case("""
        class M(nn.Module):
            def forward(self, x):
                hw = tuple(x.shape[2:4])  # rejects JIT124
                return x
    """),
    "tuple-of-list-parameter": case("""
        class M(nn.Module):
            def forward(self, x, size: List[int]):
                s = tuple(size)  # rejects JIT124
                return x
    """),
    "tuple-of-tuple": case("""
        class M(nn.Module):
            def forward(self, x, t: Tuple[int, int]):
                s = tuple(t)
                return x.view(s[0], s[1], -1)
    """),
    # -- a tuple in one branch, a list in the other (JIT701, JIT705) -------------------------------------------------
    "tuple-and-list-branches": case("""
        class M(nn.Module):
            def forward(self, x, grid: List[int], keep: bool):
                if keep:  # rejects JIT701
                    size = grid[0], grid[0]
                else:
                    size = grid
                return F.interpolate(x, size=size)
    """),
    "tuple-and-list-if-expression": case("""
        class M(nn.Module):
            def forward(self, x, grid: List[int], keep: bool):
                size = (grid[0], grid[0]) if keep else grid  # rejects JIT707
                return F.interpolate(x, size=size)
    """),
    "two-tuple-branches": case("""
        class M(nn.Module):
            def forward(self, x, grid: List[int], keep: bool):
                if keep:
                    size = grid[0], grid[0]
                else:
                    size = grid[0], grid[1]
                return F.interpolate(x, size=size)
    """),
    # -- an unrefined Optional in a display typed by an annotation (JIT221) --------------------------------------------
    "optional-value-in-returned-dict": case("""
        class M(nn.Module):
            def forward(self, x, m: Optional[torch.Tensor] = None) -> Dict[str, torch.Tensor]:
                return {  # rejects JIT221
                    "x": x,
                    "m": m,
                }
    """),
    "optional-value-in-annotated-dict": case("""
        class M(nn.Module):
            def forward(self, x, m: Optional[torch.Tensor] = None):
                d: Dict[str, torch.Tensor] = {"x": x, "m": m}  # rejects JIT221
                return d["x"]
    """),
    "refined-value-in-returned-dict": case("""
        class M(nn.Module):
            def forward(self, x, m: Optional[torch.Tensor] = None) -> Dict[str, torch.Tensor]:
                if m is None:
                    m = x
                return {"x": x, "m": m}
    """),
    "optional-value-in-optional-dict": case("""
        class M(nn.Module):
            def forward(self, x, m: Optional[torch.Tensor] = None) -> Dict[str, Optional[torch.Tensor]]:
                return {"x": x, "m": m}
    """),
    "asserted-value-in-returned-dict": case("""
        class M(nn.Module):
            def forward(self, x, m: Optional[torch.Tensor] = None) -> Dict[str, torch.Tensor]:
                assert m is not None
                return {"x": x, "m": m}
    """),
    # -- calls of the project's own functions against their annotations (JIT416) -------------------------------------
    "int-for-float-parameter": case("""
        def scale(x, factor: float):
            return x * factor

        class M(nn.Module):
            def forward(self, x):
                return scale(x, 2)  # rejects JIT416
    """),
    "list-for-int-parameter-of-a-method": case("""
        class M(nn.Module):
            def pad(self, x, amount: int):
                return F.pad(x, [amount, amount])

            def forward(self, x):
                return self.pad(x, [1, 2])  # rejects JIT416
    """),
    "unknown-keyword-of-a-function": case("""
        def scale(x, factor: float = 1.0):
            return x * factor

        class M(nn.Module):
            def forward(self, x):
                return scale(x, fator=2.0)  # rejects JIT416
    """),
    "float-for-float-parameter": case("""
        def scale(x, factor: float):
            return x * factor

        class M(nn.Module):
            def forward(self, x):
                return scale(x, 2.0) + scale(x, factor=0.5)
    """),
    "tensor-size-for-int-parameter": case("""
        class M(nn.Module):
            def helper(self, x, k: int):
                return x * k

            def forward(self, x):
                return self.helper(x, x.size(0)) + self.helper(x, x.sum())
    """),
    "static-method-called-on-self": case("""
        class M(nn.Module):
            @staticmethod
            def shift(ids, pad: int, past: int = 0):
                return ids + pad + past

            def forward(self, x):
                return self.shift(x, 1) + self.shift(x, 1, past=2)
    """),
    "submodule-called-by-attribute": case("""
        class Inner(nn.Module):
            def forward(self, x, k: int):
                return x * k

        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.inner = Inner()

            def forward(self, x):
                return self.inner(x, 3)
    """),
    # -- a module attribute passed to an unannotated (Tensor) parameter (JIT202) --------------------------------------
    "float-attribute-to-unannotated-parameter": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.scale = 2.0

            @staticmethod
            def apply(img, scale):
                return img * scale

            def forward(self, x):
                return self.apply(x, self.scale)  # rejects JIT202
    """),
    "tensor-attributes-to-unannotated-parameters": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.w = nn.Parameter(torch.ones(1))
                self.register_buffer("t", torch.ones(1))

            def apply(self, img, w, t):
                return img * w * t

            def forward(self, x):
                return self.apply(x, self.w, self.t)
    """),
    # -- a Union-annotated parameter passed on unrefined (JIT416) ------------------------------------------------------
    "union-alias-to-int-list": case("""
        from typing import Union

        _int_tuple_2_t = Union[int, Tuple[int, int]]

        def pool(x, output_size: _int_tuple_2_t = 1):
            return F.adaptive_avg_pool2d(x, output_size)  # rejects JIT416

        class M(nn.Module):
            def forward(self, x):
                return pool(x, 1)
    """),
    "union-to-int-list": case("""
        from typing import Union

        class M(nn.Module):
            def forward(self, x, output_size: Union[int, Tuple[int, int]] = 1):
                return F.adaptive_max_pool2d(x, output_size)  # rejects JIT416
    """),
    "union-refined-by-isinstance": case("""
        from typing import Union

        def pool(x, output_size: Union[int, Tuple[int, int]] = 1):
            if isinstance(output_size, int):
                return F.adaptive_avg_pool2d(x, output_size)
            return F.adaptive_avg_pool2d(x, output_size)

        class M(nn.Module):
            def forward(self, x):
                return pool(x, 1)
    """),
    "union-of-numbers-to-scalar": case("""
        from typing import Union

        def add(x, k: Union[int, float]):
            return torch.add(x, k)

        class M(nn.Module):
            def forward(self, x):
                return add(x, 1)
    """),
    # -- unpacking what is not a tuple (JIT234) -----------------------------------------------------------------------
    "unpack-modulelist-pairs": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = nn.ModuleList([])
                for _ in range(2):
                    self.layers.append(nn.ModuleList([nn.Linear(4, 4), nn.ReLU()]))

            def forward(self, x):
                for lin, act in self.layers:  # rejects JIT234
                    x = act(lin(x))
                return x
    """),
    "unpack-enumerated-modulelist-pairs": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = nn.ModuleList([nn.Sequential(nn.Linear(4, 4), nn.ReLU()) for _ in range(2)])

            def forward(self, x):
                for i, (lin, act) in enumerate(self.layers):  # rejects JIT234
                    x = act(lin(x))
                return x
    """),
    "unpack-unannotated-parameter": case("""
        class M(nn.Module):
            def forward(self, pred, target):
                mean, var = pred  # rejects JIT234
                return (mean - target) / var
    """),
    "unpack-zip-items-tuple-and-lists": case("""
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.a = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])
                self.b = nn.ModuleList([nn.ReLU() for _ in range(2)])
                self.d = nn.ModuleDict({"x": nn.ReLU()})

            def forward(self, x, pred: Tuple[torch.Tensor, torch.Tensor]):
                for lin, act in zip(self.a, self.b):
                    x = act(lin(x))
                for k, m in self.d.items():
                    x = m(x)
                for i, layer in enumerate(self.a):
                    x = layer(x)
                mean, var = pred
                h, w = x.shape[-2:]
                u, v = x.unbind(0)
                return x + mean + var + u + v
    """),
}


def marked(source: str) -> tuple[int, str, str] | None:
    rows = [(n, m.group(1), m.group(2)) for n, line in enumerate(source.splitlines(), 1)
            if (m := re.search(r"#\s*(rejects|warns)\s+(JIT\d+)", line))]
    assert len(rows) <= 1
    return rows[0] if rows else None


def lint_agrees(name: str, source: str, lint_source, codes: tuple[str, ...]) -> None:
    """jitlint flags the marked line with the marked code, and no other line with an error or one of `codes`."""
    mark = marked(source)
    findings = lint_source(source)
    unexpected = [(f.code, f.location.row) for f in findings
                  if (f.severity == "error" or f.code in codes) and (mark is None or f.location.row != mark[0])]
    assert unexpected == []
    if mark is not None:
        row, _, code = mark
        assert any(f.code == code and f.location.row == row for f in findings), [(f.code, f.location.row) for f in findings]


def torch_agrees(name: str, source: str, tmp_path) -> None:
    """torch scripts an unmarked (or `warns`) case and rejects a `rejects` case at the marked line."""
    mark = marked(source)
    result = script_source(source, tmp_path)
    if mark is None or mark[1] == "warns":
        assert result.ok, f"{name}: {result}\n{result.message_full}"
    else:
        assert result.rejected, f"{name}: torch.jit.script must reject it, but it {result}"
        assert points_at(result, source, mark[0]), f"{name}: marked line {mark[0]}, but torch {result}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_jitlint_agrees(name, lint_source):
    lint_agrees(name, CASES[name], lint_source, CODES)


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(CASES))
def test_torch_agrees(name, tmp_path):
    torch_agrees(name, CASES[name], tmp_path)


def test_interface_stub_is_a_declaration(lint_source):
    """An `@torch.jit.interface` module's `pass` methods declare; torch compiles no body there (JIT222 silent)."""
    source = case("""
        @torch.jit.interface
        class Step(nn.Module):
            def forward(self, x: torch.Tensor) -> torch.Tensor:
                pass
    """)
    assert [f.code for f in lint_source(source) if f.code == "JIT222"] == []

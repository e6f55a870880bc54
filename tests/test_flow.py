"""Control-flow typing (JIT7xx, JIT206-209) beyond the pages' examples: each case is flagged on the marked line,
and torch 2.13 rejects it (the silent look-alikes are in test_lookalikes.py)."""

import re

import pytest

from test_lookalikes import module
from oracles import points_at
from oracles.script import script_source

CASES = {
    "elif-chain-without-else": ("JIT702", module(
        "if x.dim() > 1:  # here\n    y = x.flatten()\nelif x.dim() > 0:\n    y = x\nreturn y")),
    "for-target-after-loop": ("JIT705", module("for i in range(3):\n    x = x + i\nreturn x * i  # here")),
    "while-body-name-after-loop": ("JIT705", module(
        "n = 0\nwhile n < 3:\n    y = x * n\n    n += 1\nreturn y  # here")),
    "tensor-and-int-branches": ("JIT701", module(
        "if x.dim() > 1:  # here\n    y = x\nelse:\n    y = 0\nreturn x * y")),
    "none-then-branch": ("JIT703", module("acc = None\nif x.dim() > 1:\n    acc = x  # here\nreturn acc")),
    "none-then-int-in-branch": ("JIT703", module("s = None\nif x.dim() > 1:\n    s = 1  # here\nreturn x")),
    "tensor-then-int-in-branch": ("JIT706", module("y = x\nif x.dim() > 1:\n    y = 0  # here\nreturn x")),
    "float-then-int-in-loop": ("JIT706", module("s = 0.5\nfor _ in range(2):\n    s = 1  # here\nreturn x * s")),
    "int-then-float-multiply-in-loop": ("JIT706", module(
        "s = 1\nfor _ in range(3):\n    s = s * 1.5  # here\nreturn x * s")),
    "ternary-int-float": ("JIT707", module("y = 1 if x.dim() > 1 else 2.0  # here\nreturn x * y")),
    "item-through-a-local": ("JIT708", module(
        "n = x.sum().item()\nfor _ in range(n):  # here\n    x = x + 1\nreturn x")),
    "bare-return-in-annotated": ("JIT208", module("if x.sum() > 0:\n    return x\nreturn  # here").replace(
        "def forward(self, x):", "def forward(self, x) -> torch.Tensor:")),
    "tuples-of-two-and-three": ("JIT209", module("if x.dim() > 1:\n    return x, x\nreturn x, x, x  # here")),
    "optional-in-arithmetic": ("JIT704", module(
        "return x * mask  # here", signature="self, x, mask: Optional[torch.Tensor] = None")),
    "optional-used-after-its-checked-block": ("JIT704", module(
        "if mask is not None:\n    x = x * mask\nreturn x + mask.sum()  # here",
        signature="self, x, mask: Optional[torch.Tensor] = None")),
    "optional-used-in-the-none-branch": ("JIT704", module(
        "if mask is None:\n    x = x * mask  # here\nreturn x",
        signature="self, x, mask: Optional[torch.Tensor] = None")),
    "optional-pep604-method": ("JIT704", module(
        "return x.masked_fill(mask, 0.0)  # here", signature="self, x, mask: torch.Tensor | None = None")),
    "tolist-in-a-loop-header": ("JIT206", module(
        "n = 0\nfor v in x.tolist():  # here\n    n += 1\nreturn n")),
    "list-to-unannotated-helper-param": ("JIT202", module(
        "ys: List[torch.Tensor] = [x, x]\nreturn helper(ys)  # here", extra="", header="def helper(xs):\n    return xs\n\n\n")),
    "float-to-unannotated-helper-param": ("JIT202", module(
        "return scale(x, 0.5)  # here", header="def scale(x, s):\n    return x * s\n\n\n")),
    "int-to-unannotated-submodule-param": ("JIT202", module(
        "return self.sub(x, 2)  # here", init="self.sub = Sub()\n",
        header="class Sub(nn.Module):\n    def forward(self, x, n):\n        return x * n\n\n\n")),
    "cat-of-unannotated-param": ("JIT202", module("return torch.cat(x, dim=1)  # here")),
    "unannotated-param-compared-with-str": ("JIT202", module(
        "if mode == 'a':  # here\n    return x\nreturn x * 2", signature="self, x, mode")),
    "empty-list-append-float": ("JIT210", module("l = []\nl.append(0.5)  # here\nreturn x")),
    "list-call-append-int": ("JIT210", module("l = list()\nl.append(1)  # here\nreturn x")),
    "empty-dict-int-key": ("JIT210", module("d = {}\nd[1] = x  # here\nreturn x")),
    "empty-dict-int-value": ("JIT210", module("d = {}\nd['n'] = x.size(0)  # here\nreturn x")),
    "dict-list-key": ("JIT207", module("d: Dict[List[int], torch.Tensor] = {}  # here\nreturn x")),
}

# Cases whose error torch raises with no file or line at all (like the JIT207 page, "Torch location: none"): the
# dict key type is checked when the annotation is resolved, outside any source range.
NO_TORCH_LINE = {"dict-list-key"}


def _marked(source: str) -> int:
    return next(n for n, line in enumerate(source.splitlines(), 1) if re.search(r"# here", line))


@pytest.mark.parametrize("name", CASES)
def test_flagged_on_the_marked_line(name, lint_source):
    code, source = CASES[name]
    found = [(f.code, f.location.row) for f in lint_source(source) if f.code.startswith(("JIT7", "JIT20", "JIT21", "JIT61"))]
    assert found == [(code, _marked(source))]


@pytest.mark.torch
@pytest.mark.parametrize("name", CASES)
def test_torch_rejects_it(name, tmp_path):
    source = CASES[name][1]
    result = script_source(source, tmp_path)
    assert result.rejected, f"{name}: torch.jit.script must reject it, but it {result}"
    if name in NO_TORCH_LINE:
        assert result.line is None, f"{name}: expected torch to name no line, but it {result}"
        return
    row = _marked(source)
    assert points_at(result, source, row), f"{name}: marked line {row}, but torch {result}\n{result.message_full}"

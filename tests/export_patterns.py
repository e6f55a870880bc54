"""57 patterns of code torch.export 2.13 rejects, changes or accepts, as this project's own minimal cases.

Each pattern is an nn.Module (the last class of its source is the one exported), its example inputs (a tuple, or a
dict with "args" and "dynamic_shapes"), and `# expect: CODE` comments on the lines jitlint must flag with the export
target in both modes; `# default: CODE` in default mode only, `# strict: CODE` with `[tool.jitlint.export] strict =
true` only. `default` and `strict` are what torch.export 2.13 does with the inputs: "ok" or "fail" (test_export_patterns
checks both against torch, and the marks against jitlint). `note` says where jitlint and torch knowingly differ.
"""

from __future__ import annotations

from dataclasses import dataclass

HEADER = """\
import logging
import random
import time
from typing import Dict, List, Optional

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

logger = logging.getLogger(__name__)
COUNTER = 0


class Sub(nn.Module):
    def forward(self, x):
        return x + 1

"""

X = "(torch.randn(8, 3),)"


@dataclass(frozen=True)
class Pattern:
    name: str
    body: str
    inputs: str = X
    default: str = "ok"
    strict: str = "ok"
    note: str = ""

    @property
    def source(self) -> str:
        return HEADER + "\n" + self.body.strip("\n") + "\n"


def _m(forward: str, extra: str = "", init: str = "") -> str:
    """A module `M` with `forward` (its body lines, already indented by 8) and optional extra methods/__init__."""
    text = "class M(nn.Module):\n"
    if init:
        text += "    def __init__(self):\n        super().__init__()\n" + init + "\n"
    text += extra
    return text + forward


PATTERNS = [
    Pattern("DataDepIf", _m("    def forward(self, x):\n        if x.sum() > 0:  # expect: EXP101\n"
                            "            return x * 2\n        return x - 1\n"), default="fail", strict="fail"),
    Pattern("DataDepWhile", _m("    def forward(self, x):\n        while x.sum() < 100:  # expect: EXP101\n"
                               "            x = x * 2\n        return x\n"), default="fail", strict="fail"),
    Pattern("ItemIf", _m("    def forward(self, x):\n        v = x.max().item()\n        if v > 0.5:  # expect: EXP101\n"
                         "            return x * 2\n        return x\n"), default="fail", strict="fail"),
    Pattern("ItemShape", _m("    def forward(self, x, n):\n        return torch.zeros(n.item()) + x.sum()\n"),
            "(torch.randn(8, 3), torch.tensor(4))"),
    Pattern("ItemSlice", _m("    def forward(self, x, n):\n        return x[: n.item()]\n"),
            "(torch.randn(8, 3), torch.tensor(4))"),
    Pattern("TolistLoop", _m("    def forward(self, x, sizes):\n        out = []\n        for s in sizes.tolist():\n"
                             "            out.append(x[:s].sum())\n        return torch.stack(out)\n"),
            "(torch.randn(8, 3), torch.tensor([2, 5]))"),
    Pattern("InterpSizeFromTensor", _m("    def forward(self, x, size):\n"
                                       "        h = int(size[0])  # default: EXP103\n"
                                       "        w = int(size[1])  # default: EXP103\n"
                                       "        return F.interpolate(x, size=(h, w))\n"),
            "(torch.randn(1, 3, 8, 8), torch.tensor([4, 4]))", default="fail", strict="ok"),
    Pattern("ShapeIfStatic", _m("    def forward(self, x):\n        if x.shape[0] > 4:\n            return x * 2\n"
                                "        return x\n")),
    Pattern("ShapeIfDynamic", _m("    def forward(self, x):\n        if x.shape[0] > 4:\n            return x * 2\n"
                                 "        return x\n"),
            '{"args": (torch.randn(8, 3),), "dynamic_shapes": {"x": {0: Dim("b")}}}', default="fail", strict="fail",
            note="depends on which dims are declared dynamic: not visible in the source"),
    Pattern("ShapeEqOneDynamic", _m("    def forward(self, x):\n        if x.size(0) == 1:\n            return x * 2\n"
                                    "        return x\n"),
            '{"args": (torch.randn(1, 3),), "dynamic_shapes": {"x": {0: Dim("b")}}}', default="fail", strict="fail",
            note="depends on which dims are declared dynamic: not visible in the source"),
    Pattern("ShapeReshapeDynamic", _m("    def forward(self, x):\n        b, c, h, w = x.shape\n"
                                      "        return x.reshape(b, c * h * w)\n"),
            '{"args": (torch.randn(2, 3, 4, 4),), "dynamic_shapes": {"x": {0: Dim("b"), 2: Dim("h"), 3: Dim("w")}}}'),
    Pattern("Numpy", _m("    def forward(self, x):\n        return torch.from_numpy(x.numpy() * 2)  # default: EXP104\n"),
            default="fail", strict="ok"),
    Pattern("Print", _m("    def forward(self, x):\n        print(\"forward\", x.shape)  # expect: EXP201\n"
                        "        return x * 2\n")),
    Pattern("Logging", _m("    def forward(self, x):\n        logger.warning(\"forward %s\", x.shape)  # expect: EXP201\n"
                          "        return x * 2\n")),
    Pattern("GlobalMutation", _m("    def forward(self, x):\n        global COUNTER\n"
                                 "        COUNTER += 1  # expect: EXP202\n        return x + COUNTER\n")),
    Pattern("SelfIntAttrMutation", _m("    def forward(self, x):\n        self.calls += 1  # expect: EXP203\n"
                                      "        return x * self.calls\n", init="        self.calls = 0")),
    Pattern("SelfTensorAttrAssign", _m("    def forward(self, x):\n        self.last = x.detach().sum(0)  # expect: EXP203\n"
                                       "        return x * 2\n", init="        self.last = None")),
    Pattern("BufferInplace", _m("    def forward(self, x):\n        self.total.add_(x.sum(0))\n        return x + self.total\n",
                                init='        self.register_buffer("total", torch.zeros(3))')),
    Pattern("InputInplace", _m("    def forward(self, x):\n        x.add_(1)\n        return x\n")),
    Pattern("IsScriptingBranch", _m("    def forward(self, x):\n        if torch.jit.is_scripting():  # expect: EXP301\n"
                                    "            return x + 1\n"
                                    "        return torch.from_numpy(x.numpy() + 1)  # default: EXP104\n"),
            default="fail", strict="ok"),
    Pattern("IsTracingBranch", _m("    def forward(self, x):\n        if torch.jit.is_tracing():  # expect: EXP301\n"
                                  "            return x + 1\n        return x + 2\n")),
    Pattern("JitIgnore", _m("    def forward(self, x):\n        return self.helper(x)\n",
                            extra="    @torch.jit.ignore  # expect: EXP301\n    def helper(self, x):\n"
                                  "        return torch.from_numpy(x.numpy() * 2)  # default: EXP104\n\n"),
            default="fail", strict="ok"),
    Pattern("JitIgnorePure", _m("    def forward(self, x):\n        return self.helper(x)\n",
                                extra="    @torch.jit.ignore  # expect: EXP301\n    def helper(self, x):\n"
                                      "        return x * 2\n\n")),
    Pattern("JitUnused", _m("    def forward(self, x):\n        if self.training:  # expect: EXP205\n"
                            "            return self.train_only(x)\n        return x\n",
                            extra="    @torch.jit.unused  # expect: EXP301\n    def train_only(self, x):\n"
                                  "        return x * 2\n\n")),
    Pattern("ScriptedSubmodule", _m("    def forward(self, x):\n        return self.inner(x)\n",
                                    init="        self.inner = torch.jit.script(Sub())  # expect: EXP105"),
            default="fail", strict="fail"),
    Pattern("ScriptedFunction", "@torch.jit.script\ndef double(x):\n    return x * 2\n\n\n"
            + _m("    def forward(self, x):\n        return double(x)\n")),
    Pattern("AutogradFunction", "class Square(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
            "        ctx.save_for_backward(x)\n        return x * x\n\n    @staticmethod\n"
            "    def backward(ctx, grad):\n        (x,) = ctx.saved_tensors\n        return 2 * x * grad\n\n\n"
            + _m("    def forward(self, x):\n        return Square.apply(x)\n")),
    Pattern("GeneratorExpr", _m("    def forward(self, x):\n        return sum(t * 2 for t in (x, x + 1))\n")),
    Pattern("GeneratorFunction", _m("    def forward(self, x):\n        return sum(self.parts(x))\n",
                                    extra="    def parts(self, x):\n        yield x\n        yield x * 2\n\n")),
    Pattern("TryExcept", _m("    def forward(self, x):\n        try:\n            y = x + self.missing\n"
                            "        except AttributeError:\n            y = x\n        return y\n")),
    Pattern("Nonzero", _m("    def forward(self, x):\n        return torch.nonzero(x)\n")),
    Pattern("Unique", _m("    def forward(self, x):\n        return torch.unique(x)\n"), "(torch.tensor([1, 2, 2, 3]),)"),
    Pattern("BoolMask", _m("    def forward(self, x):\n        return x[x > 0]\n")),
    Pattern("BoolMaskThenBranch", _m("    def forward(self, x):\n        y = x[x > 0]\n"
                                     "        if y.shape[0] > 2:  # expect: EXP101\n            return y * 2\n"
                                     "        return y\n"), default="fail", strict="fail"),
    Pattern("NoGrad", _m("    def forward(self, x):\n        with torch.no_grad():\n            y = x * 2\n        return y\n")),
    Pattern("ModuleListVarIndex", _m("    def forward(self, x):\n        for i in range(len(self.layers)):\n"
                                     "            x = self.layers[i](x)\n        return x\n",
                                     init="        self.layers = nn.ModuleList([nn.Linear(3, 3) for _ in range(2)])")),
    Pattern("ModuleListInputIndex", _m("    def forward(self, x, k: int):\n        return self.heads[k](x)\n",
                                       init="        self.heads = nn.ModuleList([nn.Linear(3, 3) for _ in range(3)])"),
            "(torch.randn(8, 3), 1)"),
    Pattern("JitForkWait", _m("    def forward(self, x):\n        fut = torch.jit.fork(self.inner, x)  # expect: EXP208\n"
                              "        return torch.jit.wait(fut)\n", init="        self.inner = Sub()"),
            strict="fail", note="strict mode rejects it: EXP208 is a warning whose message says so"),
    Pattern("JitAnnotate", _m("    def forward(self, x):\n"
                              "        out = torch.jit.annotate(List[torch.Tensor], [])  # expect: EXP301\n"
                              "        out.append(x)\n        return out[0]\n")),
    Pattern("VarArgs", _m("    def forward(self, *xs):\n        return xs[0] + xs[1]\n"),
            "(torch.randn(8, 3), torch.randn(8, 3))"),
    Pattern("TrainingBranch", _m("    def forward(self, x):\n        if self.training:  # expect: EXP205\n"
                                 "            return x * 0.5\n        return x\n")),
    Pattern("PythonRandom", _m("    def forward(self, x):\n        if random.random() < 0.5:  # expect: EXP204\n"
                               "            return x * 2\n        return x\n"), strict="fail",
            note="strict mode rejects it: EXP204 is a warning whose message says so"),
    Pattern("TimeCall", _m("    def forward(self, x):\n        return x + (time.time() % 1.0)  # expect: EXP204\n"),
            strict="fail",
            note="strict mode rejects it: EXP204 is a warning whose message says so"),
    Pattern("TensorConstantAttr", _m("    def forward(self, x):\n        return x + self.offset\n",
                                     init="        self.offset = torch.ones(3)")),
    Pattern("StrInput", _m("    def forward(self, x, mode: str):\n        if mode == \"double\":\n"
                           "            return x * 2\n        return x\n"), '(torch.randn(8, 3), "double")'),
    Pattern("OptionalNone", _m("    def forward(self, x, mask: Optional[torch.Tensor] = None):\n"
                               "        if mask is not None:\n            x = x * mask\n        return x\n")),
    Pattern("DictOutput", _m("    def forward(self, x):\n        return {\"a\": x * 2, \"b\": x + 1}\n")),
    Pattern("DeviceBranch", _m("    def forward(self, x):\n        if x.device.type == \"cpu\":  # expect: EXP206\n"
                               "            return x + 1\n        return x - 1\n")),
    Pattern("AssertData", _m("    def forward(self, x):\n        assert (x > -100).all(), \"out of range\"  # default: EXP102\n"
                             "        return x * 2\n"), default="fail", strict="ok"),
    Pattern("TorchCond", _m("    def forward(self, x):\n"
                            "        return torch.cond(x.sum() > 0, lambda t: t * 2, lambda t: t - 1, (x,))\n")),
    Pattern("ItemChecked", _m("    def forward(self, x, n):\n        k = n.item()\n        torch._check(k >= 0)\n"
                              "        torch._check(k <= x.shape[0])\n        return x[:k]\n"),
            "(torch.randn(8, 3), torch.tensor(4))"),
    Pattern("JitExportMethod", _m("    def forward(self, x):\n        return x * 2\n",
                                  extra="    @torch.jit.export  # expect: EXP207\n    def encode(self, x):\n"
                                        "        return x + 1\n\n")),
    Pattern("DataAttr", _m("    def forward(self, x):\n        return x.data * 2  # expect: EXP106\n"), default="fail",
            strict="ok", note="strict exports a broken program (it returns a FakeTensor): jitlint reports it in both modes"),
    Pattern("TensorIntOutput", _m("    def forward(self, x):\n        return x.shape[0], x.sum().item()\n")),
    Pattern("ThreeDataDependent", _m("    def forward(self, x):\n        if x.sum() > 0:  # expect: EXP101\n"
                                     "            x = x * 2\n        n = int(x.max().item() * 10)  # default: EXP103\n"
                                     "        if n % 2 == 0:  # expect: EXP101\n            x = x + 1\n"
                                     "        if (x > 1).any():  # expect: EXP101\n            x = x - 1\n"
                                     "        return x\n"), default="fail", strict="fail"),
    Pattern("ThreeMixed", _m("    def forward(self, x):\n        if x.sum() > 0:  # expect: EXP101\n"
                             "            x = x * 2\n        y = torch.from_numpy(x.numpy())  # default: EXP104\n"
                             "        return self.inner(y)\n",
                             init="        self.inner = torch.jit.script(Sub())  # expect: EXP105"),
            default="fail", strict="fail"),
    Pattern("TracedSubmodule", _m("    def forward(self, x):\n        return self.inner(x)\n",
                                  init="        self.inner = torch.jit.trace(Sub(), torch.randn(8, 3))  # strict: EXP105"),
            strict="fail", note="strict mode only: EXP105 flags it with `[tool.jitlint.export] strict = true`"),
]

# Beyond the 57: what the data-dependence analysis decides, measured while writing it (torch 2.13, default mode).
EXTRA = [
    Pattern("IntZeros", _m("    def forward(self, x, n):\n        return torch.zeros(int(n)) + x.sum()  # default: EXP103\n"),
            "(torch.randn(8, 3), torch.tensor(4))", default="fail", strict="ok"),
    Pattern("FloatFactor", _m("    def forward(self, x, n):\n        return x * float(n)  # default: EXP103\n"),
            "(torch.randn(8, 3), torch.tensor(4))", default="fail", strict="ok"),
    Pattern("ItemFactor", _m("    def forward(self, x, n):\n        return x * n.item()\n"),
            "(torch.randn(8, 3), torch.tensor(4))"),
    Pattern("ItemRange", _m("    def forward(self, x, n):\n        out = x\n"
                            "        for i in range(n.item()):  # expect: EXP103\n            out = out + i\n"
                            "        return out\n"), "(torch.randn(8, 3), torch.tensor(4))", default="fail", strict="fail"),
    Pattern("ItemReshape", _m("    def forward(self, x, n):\n        return x.reshape(n.item(), -1)\n"),
            "(torch.randn(8, 3), torch.tensor(2))"),
    Pattern("TensorTernary", _m("    def forward(self, x):\n        return x * 2 if x.sum() > 0 else x  # expect: EXP101\n"),
            default="fail", strict="fail"),
    Pattern("TolistIf", _m("    def forward(self, x, n):\n        for s in n.tolist():\n"
                           "            if s > 2:  # expect: EXP101\n                x = x * 2\n        return x\n"),
            "(torch.randn(8, 3), torch.tensor([1, 3]))", default="fail", strict="fail"),
    Pattern("LenMask", _m("    def forward(self, x):\n        n = len(x[x > 0])  # default: EXP103\n        return x * n\n"),
            default="fail", strict="ok"),
    Pattern("TorchAssert", _m("    def forward(self, x):\n        torch._assert(x.sum() > -1000, \"m\")  # expect: EXP102\n"
                              "        return x\n"), default="fail", strict="fail"),
    Pattern("EqualIf", _m("    def forward(self, x):\n        if torch.equal(x, x):  # expect: EXP101\n"
                          "            return x * 2\n        return x\n"), default="fail", strict="fail"),
    Pattern("NumpyFunction", _m("    def forward(self, x):\n        return x + torch.from_numpy(np.abs(x))  # default: EXP104\n"),
            default="fail", strict="ok"),
    Pattern("ParameterData", _m("    def forward(self, x):\n        return x * self.w.data  # expect: EXP106\n",
                                init="        self.w = nn.Parameter(torch.ones(3))"), default="fail", strict="ok",
            note="strict exports a broken program (`.data` becomes a constant): jitlint reports it in both modes"),
    Pattern("ExportingGuard", _m("    def forward(self, x):\n        if torch.compiler.is_exporting():\n"
                                 "            return x * 2\n        return torch.from_numpy(x.numpy())\n")),
    Pattern("ShapeChecks", _m("    def forward(self, x, mask: Optional[torch.Tensor] = None):\n"
                              "        assert x.shape[0] == 8\n"
                              "        if x.dim() == 2 and x.numel() > 2 and x.dtype == torch.float32:\n"
                              "            x = x * 2\n"
                              "        if isinstance(x, torch.Tensor) and mask is None and not x.requires_grad:\n"
                              "            x = x + 1\n"
                              "        return torch.where(x.sum() > 0, x, -x)\n")),
    Pattern("BufferReassign", _m("    def forward(self, x):\n        self.b = self.b + x.sum(0)\n        return x + self.b\n",
                                 init='        self.register_buffer("b", torch.zeros(3))')),
    Pattern("ItemIndex", _m("    def forward(self, x):\n        return x[x.sum(1).argmax().item()]\n")),
    Pattern("TolistLen", _m("    def forward(self, x):\n        y = x.tolist()\n        return x * len(y)\n"), strict="fail",
            note="strict only: Dynamo rejects `.tolist()` of a float tensor; not flagged"),
    Pattern("IntOfShape", _m("    def forward(self, x):\n        k = int(x.shape[0] / 2)\n        return x[:k]\n")),
    Pattern("ConstantTensorScalar", _m("    def forward(self, x):\n        s = float(x.shape[-1]) / 4.0\n"
                                       "        scale = 2 ** float(torch.tensor(s).log2().round())\n"
                                       "        return x * scale\n")),
    Pattern("ConstantTensorList", _m("    def forward(self, x):\n        t = torch.tensor([1.0, 2.0])\n"
                                     "        if t.sum() > 2:  # expect: EXP101\n            x = x + 1\n        return x\n"),
            default="fail", strict="fail"),
    Pattern("ShapeTensorIf", _m("    def forward(self, x):\n        im_shape = torch.tensor(x.shape[-2:])\n"
                                "        if im_shape.min() > 10:  # expect: EXP101\n            x = x * 2\n        return x\n"),
            "(torch.randn(1, 3, 20, 30),)", default="fail", strict="fail"),
    Pattern("ShapeTensorScale", _m("    def forward(self, x):\n        im_shape = torch.tensor(x.shape[-2:])\n"
                                   "        scale = torch.min(torch.tensor(16.0) / torch.min(im_shape).float(),\n"
                                   "                          torch.tensor(40.0) / torch.max(im_shape).float())\n"
                                   "        return F.interpolate(x, scale_factor=scale.item(), recompute_scale_factor=True)\n"),
            "(torch.randn(1, 3, 20, 30),)"),
    Pattern("IntFloatItem", _m("    def forward(self, x):\n        return x * int(x.max().item() * 10)  # default: EXP103\n"),
            default="fail", strict="ok"),
    Pattern("IntIntItem", _m("    def forward(self, x, n):\n        return x[: int(n.item())]  # default: EXP103\n"),
            "(torch.randn(8, 3), torch.tensor(3))", default="fail", strict="ok"),
    Pattern("FloatItem", _m("    def forward(self, x):\n        return x * float(x.max().item())  # default: EXP103\n"),
            default="fail", strict="ok"),
    Pattern("RoundItem", _m("    def forward(self, x):\n        return x * round(x.max().item())\n")),
    Pattern("TrainingOnlyBlocker", _m("    def forward(self, x):\n        if self.training:  # expect: EXP205\n"
                                      "            if x.sum() > 0:\n                x = x * 2\n        return x\n")),
    Pattern("NumpyConstantAny", _m("    def forward(self, x):\n        pad = -np.minimum([1, -2], 0)\n"
                                   "        if pad.any():\n            x = x * 2\n        return x\n"), strict="fail",
            note="strict only: TorchDynamo traces NumPy arrays as tensors, so the branch is data-dependent there; not flagged"),
    Pattern("ModuleFunctionNotMethod", "import math\n\n\n" + _m("    def forward(self, x):\n        b, t = x.shape\n"
                                       "        side = int(math.sqrt(t))\n        return x[:, :side]\n")),
    Pattern("ConstantTensorOps", _m("    def forward(self, x):\n"
                                    "        level = -torch.log2(torch.tensor(0.25, dtype=torch.float32)).item()\n"
                                    "        return x * int(level)\n")),
    Pattern("WhereIndicesBranch", _m("    def forward(self, x):\n        keep = torch.where(x.sum(1) > 0)[0]\n"
                                     "        boxes, scores = x[keep], x.sum(1)[keep]\n"
                                     "        if boxes.numel() > 12:  # expect: EXP101\n            return boxes * 2\n"
                                     "        return boxes + scores[:, None]\n"), default="fail", strict="fail"),
    Pattern("WhereIndicesNoBranch", _m("    def forward(self, x):\n        keep = torch.where(x.sum(1) > 0)[0]\n"
                                       "        boxes, scores = x[keep], x.sum(1)[keep]\n"
                                       "        return boxes + scores[:, None]\n")),
]


def table() -> str:
    """The pattern table of bench/records/ (the export patterns): torch.export 2.13's verdicts (which test_export_patterns checks against torch) and
    what jitlint reports, linted now, in each mode. `PYTHONPATH=src python tests/export_patterns.py`."""
    import tempfile
    from pathlib import Path

    from jitlint.codes import TARGET_OF
    from jitlint.config import Config
    from jitlint.engine import lint
    from jitlint.targets.export.settings import ExportSettings

    codes = {code for code, target in TARGET_OF.items() if target in ("export", None)}
    rows = ["| pattern | export default | jitlint (default) | export strict | jitlint (strict) | note |",
            "| --- | --- | --- | --- | --- | --- |"]
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "pattern.py"
        for pattern in PATTERNS + EXTRA:
            path.write_text(pattern.source)
            found = []
            for strict in (False, True):
                config = Config(root=Path(directory), target_settings={"export": ExportSettings(strict=strict)})
                findings = lint([path], config, codes)
                found.append(", ".join(sorted({f.code for f in findings})) or "-")
            rows.append(f"| {pattern.name}{'' if pattern in PATTERNS else ' (extra)'} | {pattern.default} | {found[0]} "
                        f"| {pattern.strict} | {found[1]} | {pattern.note} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(table())

"""Differential testing of symbolic_trace readiness: generated models, traced by torch and linted by jitlint.

    python bench/differential_fx.py --seed 1 --count 3000 --out runs/diff1
    python bench/differential_fx.py --seed 7 --count 200 --jitlint "jitlint" --workers 2 --timeout 20

The generator writes small model files: helper functions with checks on their inputs (library-style validation:
`isinstance(x, torch.Tensor)`, `type(x)`, `x.dtype not in (...)`, `len(x.shape)`, `x.dim()`, asserts), shape
arithmetic, control flow on sizes, on values and on configuration, containers of tensors, loops, submodules
(`nn.Sequential`, `ModuleList`, blocks returning tuples), factories, builtins and indexing, and calls into an
installed library (einops: functions, layers, a wrapped helper; the bench needs einops installed). It knows nothing of
jitlint: each program is only Python that runs eagerly. Programs are reproducible from the seed (program `i` of
seed `s` is always the same).

Each program is traced with plain `torch.fx.symbolic_trace` of its last nn.Module class, in a pool of child
processes that import torch once, with a time limit per program; torch's result is the exception and the innermost
traceback line in the program's file. The programs are then linted in batches with
`jitlint check --target fx --output-format json`. A program agrees when it traces and jitlint reports no error in
it, or when it fails and jitlint reports an error at torch's line. The report groups the programs by torch's
message (names and numbers masked) and saves the disagreeing ones (`--out`), each with torch's verdict and
jitlint's errors in a header.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import textwrap
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

HEADER = "import math\n\nimport numpy as np\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"


# -- the generator ------------------------------------------------------------------------------------------------
@dataclass
class Part:
    """Code for one place: lines of a function body working on the tensor `x` (rebinding it), lines of the owning
    class's `__init__` (attributes of `self`), and module-level definitions it needs."""

    body: list[str]
    init: list[str] = field(default_factory=list)
    defs: list[str] = field(default_factory=list)
    uses_self: bool = False


class Generator:
    """Builds one program from random choices among the snippets below."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.counter = 0

    def fresh(self, stem: str) -> str:
        self.counter += 1
        return f"{stem}{self.counter}"

    def choice(self, options):
        return self.rng.choice(options)

    # -- snippets: each returns a Part ----------------------------------------------------------------------------
    def shape_arithmetic(self) -> Part:
        r = self.rng
        a, b = self.fresh("n"), self.fresh("m")
        forms = [
            [f"{a}, {b} = x.shape[0], x.shape[-1]", f"x = x.reshape({a}, -1)[:, : {b}]"],
            [f"{a} = x.size(0)", f"{b} = x.numel() // {a}", f"x = x.view({a}, {b})"],
            [f"{a} = x.shape[-1]", f"x = x / math.sqrt({a})"],
            [f"{a} = x.size(-1)", f"{b} = ({r.choice([2, 4, 8])} - {a} % {r.choice([2, 4, 8])}) % {r.choice([2, 4, 8])}",
             f"x = F.pad(x, [0, {b}])"],
            [f"{a}, {b} = x.shape[:2]", f"x = x.flatten(2) if x.dim() > 2 else x.view({a}, {b})"],
            [f"{a} = x.shape", f"x = x.reshape({a}[0], -1)"],
            [f"{a} = x.size()", f"x = x.view(*{a})"],
            [f"{a} = x.shape[0] * x.shape[1]", f"x = x.reshape({a}, -1)"],
            [f"{a} = int(x.size(-1))", f"x = x[..., : {a}]"],
            [f"{a} = int(math.sqrt(x.size(-1)))", f"x = x[..., : {a} * {a}]"],
            [f"{a} = math.ceil(x.size(-1) / 2)", f"x = x[..., :{a}]"],
            [f"{a} = max(x.size(-1) // 2, 1)", f"x = x[..., :{a}]"],
            [f"{a} = min(x.size(0), {r.randint(1, 8)})", f"x = x[:{a}]"],
            [f"{a} = round(x.size(-1) * 0.5)", f"x = x[..., :{a}]"],
            [f"{a} = float(x.size(-1))", f"x = x / {a}"],
            [f"{a} = x.shape[-1] // 2", f"x = torch.cat([x[..., :{a}], x[..., {a}:]], dim=-1)"],
            [f"{a} = (1,) + tuple(x.shape[1:])", f"x = x.reshape({a}[0], -1)"],
            [f"{a} = x.shape[:1] + (-1,)", f"x = x.reshape({a})"],
            [f"{a} = len(x.shape)", f"x = x.reshape(-1) if {a} == 1 else x"],
            [f"{a} = x.ndim", f"x = x.unsqueeze(0) if {a} == 1 else x"],
            [f"{a}, *{b} = x.shape", f"x = x.reshape({a}, -1)"],
            [f"{a} = [s // 2 for s in x.shape[1:]]", "x = x * 2"],
            [f"{a} = divmod(x.size(-1), 2)", "x = x * 2"],
        ]
        return Part(r.choice(forms))

    def control_on_size(self) -> Part:
        r = self.rng
        tests = ["x.size(0) > 1", "x.shape[-1] % 2 == 1", "x.dim() == 2", "x.ndim > 3", "x.numel() == 0",
                 "x.shape[0] != x.shape[-1]", "x.size(-1) < 4", "0 < x.size(0) < 8", "x.size(1) in (1, 3)"]
        test = r.choice(tests)
        form = r.randint(0, 3)
        if form == 0:
            return Part([f"if {test}:", "    x = x * 2"])
        if form == 1:
            return Part([f"if {test}:", "    x = x + 1", "else:", "    x = x - 1"])
        if form == 2:
            return Part([f"x = x * 2 if {test} else x"])
        return Part([f"assert {test}, \"unexpected shape\""])

    def control_on_value(self) -> Part:
        r = self.rng
        forms = [
            ["if x.sum() > 0:", "    x = x - x.mean()"],
            ["while x.abs().max() > 10:", "    x = x / 2"],
            ["if x.mean().item() > 0:", "    x = -x"],
            ["x = x if x.max() < 1 else x / x.max()"],
            ["if x.dtype == torch.float16:", "    x = x.float()"],
            ["if x.device.type == \"cpu\":", "    x = x + 0"],
            ["if x.is_floating_point():", "    x = x * 0.5"],
            ["if bool(x.any()):", "    x = x + 1"],
            ["if x.requires_grad:", "    x = x.detach()"],
            ["if not torch.jit.is_scripting() and x.sum() != 0:", "    x = x * 1"],
            ["x = torch.where(x > 0, x, -x)"],
            ["torch._assert(x.dim() > 0, \"scalar input\")"],
            ["torch._assert(x.dim() == 2 or x.dim() == 3, \"rank\")"],
        ]
        return Part(r.choice(forms))

    def control_on_config(self) -> Part:
        r = self.rng
        name = self.fresh("use_")
        value = r.choice(["True", "False"])
        mode = r.choice(["\"sum\"", "\"mean\"", "\"max\""])
        forms = [
            Part([f"if self.{name}:", "    x = x * 2"], [f"self.{name} = {value}"], uses_self=True),
            Part([f"if self.{name} == \"sum\":", "    x = x.sum(-1, keepdim=True)", f"elif self.{name} == \"mean\":",
                  "    x = x.mean(-1, keepdim=True)"], [f"self.{name} = {mode}"], uses_self=True),
            Part(["if self.training:", "    x = x * 0.9"], uses_self=True),
            Part([f"if self.{name} > 1:", f"    x = x * self.{name}"], [f"self.{name} = {r.randint(0, 3)}"],
                 uses_self=True),
            Part([f"if self.{name} is not None:", f"    x = x + self.{name}"],
                 [f"self.{name} = {r.choice(['None', '1.0'])}"], uses_self=True),
            Part(["if not torch.jit.is_scripting():", "    x = x + 1"]),
            Part(["if torch.jit.is_scripting():", "    x = x * int(x.size(0))"]),
            Part(["if not torch.fx._symbolic_trace.is_fx_tracing():", "    x = x * len(x)"]),
        ]
        return r.choice(forms)

    def containers(self) -> Part:
        r = self.rng
        feats = self.fresh("feats")
        forms = [
            [f"{feats} = [x, x * 2, x + 1]", f"x = torch.cat({feats}, dim=-1)"],
            [f"{feats} = []", "for _ in range(2):", f"    {feats}.append(x)", "    x = x + 1",
             f"x = torch.stack({feats}).sum(0)"],
            [f"{feats} = [x, x * 2]", f"for f in {feats}:", "    x = x + f"],
            [f"{feats} = [x, x * 2]", f"x = sum({feats})"],
            [f"{feats} = {{\"a\": x, \"b\": x * 2}}", f"x = {feats}[\"a\"] + {feats}[\"b\"]"],
            [f"{feats} = {{\"a\": x}}", f"for k, v in {feats}.items():", "    x = x + v"],
            [f"{feats} = (x, x - 1)", f"a, b = {feats}", "x = a * b"],
            [f"{feats} = [x]", f"if len({feats}) > 1:", f"    x = {feats}[1]"],
            [f"{feats} = [x, x]", f"x = {feats}[-1] + {feats}[0]"],
            [f"{feats} = [x, x * 2]", f"if {feats}[0].shape[0] > 1:", "    x = x + 1"],
            [f"{feats} = list(x.unbind(0))", "x = torch.stack(" + feats + ")"],
            [f"{feats} = x.chunk(2, dim=-1)", f"x = torch.cat([{feats}[1], {feats}[0]], dim=-1)"],
            [f"a, b = x.chunk(2, dim=-1)", "x = torch.cat([b, a], dim=-1)"],
            [f"{feats} = {{x.size(0): x}}", "x = x * 1"],
            [f"{feats} = [t * 2 for t in x.split(1, dim=0)]", f"x = torch.cat({feats})"],
            [f"{feats} = [x, x]", f"x = torch.stack([*{feats}]).mean(0)"],
            [f"{feats} = [x, None]", f"x = {feats}[0] if {feats}[1] is None else {feats}[1]"],
            [f"x[:, 0] = 0"],
            [f"{feats} = [x, x]", f"{feats}[0] = x * 3", f"x = {feats}[0]"],
        ]
        return Part(r.choice(forms))

    def loops(self) -> Part:
        r = self.rng
        name = self.fresh("n_")
        forms = [
            Part([f"for i in range(self.{name}):", "    x = x + i"], [f"self.{name} = {r.randint(1, 3)}"], uses_self=True),
            Part(["for i in range(3):", "    x = x * 1.0"]),
            Part(["for i in range(x.size(0)):", "    x = x + 1"]),
            Part(["for t in x:", "    x = x + t"]),
            Part(["for t in x.unbind(0):", "    x = x + t"]),
            Part(["for s in x.shape:", "    x = x * 1"]),
            Part(["i = 0", "while i < 3:", "    x = x + 1", "    i += 1"]),
            Part(["for i, t in enumerate([x, x]):", "    x = x + t * i"]),
            Part([f"for i in range(len(self.{name})):", f"    x = x * self.{name}[i]"],
                 [f"self.{name} = [1.0, 0.5]"], uses_self=True),
            Part([f"for w in self.{name}:", "    x = x * w"], [f"self.{name} = (1.0, 2.0)"], uses_self=True),
            Part(["for a, b in zip(x.shape, (1, 2)):", "    x = x * 1"]),
            Part(["for t in torch.split(x, 1):", "    x = x + t"]),
        ]
        return r.choice(forms)

    def builtins_and_indexing(self) -> Part:
        r = self.rng
        name = self.fresh("t_")
        forms = [
            Part(["x = x * len(x)"]),
            Part(["x = x.view(len(x), -1)"]),
            Part([f"x = x * self.{name}[x.size(0) % 2]"], [f"self.{name} = [1.0, 2.0]"], uses_self=True),
            Part([f"x = x * self.{name}[1]"], [f"self.{name} = [1.0, 2.0]"], uses_self=True),
            Part([f"x = x + self.{name}[: x.size(-1)].sum()"], [f"self.register_buffer(\"{name}\", torch.ones(64))"],
                 uses_self=True),
            Part([f"x = x + self.{name}[0]"], [f"self.register_buffer(\"{name}\", torch.ones(4))"], uses_self=True),
            Part([f"x = x + self.{name}[x.size(0)]"], [f"self.register_buffer(\"{name}\", torch.ones(64))"],
                 uses_self=True),
            Part(["x = x[:, : x.size(1) // 2]"]),
            Part(["x = x[..., :-1] if x.size(-1) > 1 else x"]),
            Part(["x = torch.zeros(x.size(0), 3) + x.sum()"]),
            Part(["x = torch.zeros((x.size(0), 3)) + x.sum()"]),
            Part(["x = x.new_zeros(x.size(0), 3) + x.sum()"]),
            Part(["x = x + torch.ones(x.size(-1))"]),
            Part(["x = torch.randn(x.size(0), 3) + x.sum()"]),
            Part(["x = x + torch.arange(x.size(-1))"]),
            Part(["x = x * torch.tensor([x.size(0)], dtype=torch.float32)"]),
            Part(["x = x / torch.tensor(x.size(-1))"]),
            Part(["x = x.clamp(min=torch.finfo(x.dtype).min)"]),
            Part(["x = x.clamp(min=torch.finfo(torch.float32).min)"]),
            Part(["x = x * abs(x.size(0))"]),
            Part(["x = x * pow(x.size(0), 2)"]),
            Part(["x = x * getattr(x, \"ndim\")"]),
            Part([f"x = x + np.sqrt({r.randint(1, 9)})"]),
            Part(["x = x * np.asarray(x).mean()"]),
            Part(["x = x * float(np.prod(x.shape))"]),
            Part(["x = x.view(torch.Size([x.size(0), -1]))"]),
            Part(["x = x * hex(x.size(0)).count(\"x\")"]),
            Part(["x = x * sorted([x.size(0), 2])[0]"]),
            Part(["x = x * next(iter([x.size(0)]))"]),
            Part(["x = x * [1, 2][x.size(0) > 1]"]),
        ]
        return r.choice(forms)

    def validation(self) -> tuple[str, list[str]]:
        """A library-style validation function (name, definition lines): it checks its input and returns it."""
        r = self.rng
        name = self.fresh("_check_input")
        checks = [
            ["if not isinstance(x, torch.Tensor):", "    raise TypeError(\"expected a tensor\")"],
            ["if isinstance(x, (list, tuple)):", "    x = torch.stack(list(x))"],
            ["if x.dim() != 2:", "    raise ValueError(\"expected a 2-d input\")"],
            ["if x.dtype not in (torch.float32, torch.float16):", "    raise TypeError(\"unsupported dtype\")"],
            ["if type(x) is not torch.Tensor:", "    raise TypeError(f\"expected a tensor, got {type(x).__name__}\")"],
            ["assert isinstance(x, torch.Tensor), \"expected a tensor\""],
            ["if x is None:", "    raise ValueError(\"input is required\")"],
            ["if not torch.is_tensor(x):", "    raise TypeError(\"expected a tensor\")"],
            ["if not hasattr(x, \"shape\"):", "    raise TypeError(\"expected an array\")"],
            ["if len(x.shape) < 1:", "    raise ValueError(\"expected at least 1-d\")"],
            ["torch._assert(x.dim() >= 1, \"expected at least 1-d\")"],
            ["torch._assert(isinstance(x, torch.Tensor), \"expected a tensor\")"],
            ["if x.ndim < 1:", "    raise ValueError(\"expected at least 1-d\")"],
            ["if isinstance(x, torch.Tensor) and x.dim() == 0:", "    raise ValueError(\"scalar input\")"],
            ["if not isinstance(x, torch.Tensor) and x is not None:", "    raise TypeError(\"expected a tensor\")"],
            ["if isinstance(x, np.ndarray):", "    x = torch.from_numpy(x)"],
            ["if not isinstance(x, (torch.Tensor, np.ndarray)):", "    raise TypeError(\"expected an array\")"],
            ["if type(x) == np.ndarray:", "    x = torch.as_tensor(x)"],
            ["if callable(x):", "    x = x()"],
            ["if x.shape[-1] == 0:", "    raise ValueError(\"empty input\")"],
            ["if isinstance(x, torch.Tensor):", "    return x", "raise TypeError(\"expected a tensor\")"],
            ["if not isinstance(x, torch.Tensor):", "    x = torch.as_tensor(x)"],
            ["if isinstance(x, int):", "    x = torch.tensor(x)"],
        ]
        body = []
        for _ in range(r.randint(1, 2)):
            body.extend(r.choice(checks))
        definition = [f"def {name}(x):", *("    " + line for line in body), "    return x"]
        return name, definition

    def library_check(self) -> Part:
        name, definition = self.validation()
        if self.rng.random() < 0.3:
            outer = self.fresh("_validate")
            definition = definition + ["", "", f"def {outer}(x, name=\"input\"):", f"    return {name}(x)"]
            name = outer
        return Part([f"x = {name}(x)"], defs=["\n".join(definition)])

    def helper_with_size(self) -> Part:
        r = self.rng
        name = self.fresh("_amount")
        k = r.choice([2, 3, 4])
        bodies = [
            [f"def {name}(n, k):", "    return (k - n % k) % k"],
            [f"def {name}(n, k):", "    if n % k:", "        return k - n % k", "    return 0"],
            [f"def {name}(n, k):", "    return max(k - n % k, 0)"],
            [f"def {name}(n, k):", "    return math.ceil(n / k) * k - n"],
            [f"def {name}(n, k):", "    return int(math.ceil(n / k)) * k - n"],
            [f"def {name}(n, k):", "    return n // k if n > k else 0"],
            [f"def {name}(n, k):", "    assert k > 0", "    return (k - n % k) % k"],
            [f"def {name}(n, k):", "    if k <= 0:", "        raise ValueError(\"k must be positive\")", "    return n % k"],
        ]
        body = r.choice(bodies)
        size = r.choice(["x.size(-1)", "x.shape[-1]", str(r.randint(3, 9))])
        call = f"{name}({size}, {k})" if r.random() < 0.7 else f"{name}(n={size}, k={k})"
        return Part([f"p = {call}", "x = F.pad(x, [0, p])"], defs=["\n".join(body)])

    def wrapped_helper(self) -> Part:
        name = self.fresh("_leaf")
        body = self.rng.choice([
            ["if x.sum() > 0:", "    return x", "return -x"],
            ["return x * len(x)"],
            ["return x.view(int(x.size(0)), -1)"],
        ])
        definition = [f"@torch.fx.wrap", f"def {name}(x):", *("    " + line for line in body)]
        return Part([f"x = {name}(x)"], defs=["\n".join(definition)])

    def module_hazards(self) -> Part:
        r = self.rng
        forms = [
            Part(["x = nn.ReLU()(x)"]),
            Part(["act = nn.Tanh()", "x = act(x)"]),
            Part(["x = F.relu(x)"]),
            Part(["try:", "    n = int(x.size(0))", "except TypeError:", "    n = 1", "x = x * n"]),
            Part(["try:", "    x = x.view(-1, 2)", "except RuntimeError:", "    x = x.flatten()"]),
            Part(["key = f\"{x.shape[0]}\"", "x = {key: x}[key]"]),
            Part(["tag = f\"{x.size(0):d}\"", "x = x * 1"]),
            Part(["x = x.float() if x.dtype != torch.float32 else x"]),
            Part(["x = x.to(torch.float32)"]),
        ]
        return r.choice(forms)

    def tensor_ops(self) -> Part:
        r = self.rng
        forms = [
            Part(["x = F.relu(x)"]), Part(["x = x.transpose(-1, -2).contiguous()"]),
            Part(["x = torch.cat([x, x], dim=-1)"]), Part(["x = x.softmax(dim=-1)"]),
            Part(["x = self.proj(x) if x.shape else x"], uses_self=True), Part(["x = self.proj(x)"], uses_self=True),
            Part(["x = x.flatten(1)"]), Part(["x = (x - x.mean(-1, keepdim=True)) / (x.std(-1, keepdim=True) + 1e-5)"]),
            Part(["x = x @ x.transpose(-1, -2)"]), Part(["x = torch.sigmoid(x) * x"]),
            Part(["x = x.unsqueeze(1).squeeze(1)"]), Part(["x = F.dropout(x, 0.1, self.training)"], uses_self=True),
            Part([f"x = x.clamp({r.choice(['min=0', 'max=6', '-1, 1'])})"]),
            Part(["x = x.permute(*range(x.dim() - 1, -1, -1))"]),
        ]
        return r.choice(forms)

    def returns_and_calls(self) -> Part:
        """Helpers that return tuples or sizes, take `*args`/`**kwargs`, call each other, or are local."""
        r = self.rng
        name, inner = self.fresh("_split"), self.fresh("_inner")
        forms = [
            Part([f"x, n = {name}(x)", "x = x * n"], defs=[f"def {name}(x):\n    return x[:, :1], x.shape[-1]"]),
            Part([f"x, n = {name}(x)", "if n > 1:", "    x = x * 2"],
                 defs=[f"def {name}(x):\n    return x[:, :1], x.shape[-1]"]),
            Part([f"k, mode = {name}()", "if mode == \"a\" and k > 1:", "    x = x * k"],
                 defs=[f"def {name}():\n    return 2, \"a\""]),
            Part([f"x = {name}(x, **{{\"scale\": 2.0}})"],
                 defs=[f"def {name}(x, scale=1.0):\n    if scale > 1.0:\n        x = x * scale\n    return x"]),
            Part([f"x = {name}(*[x, 2])"], defs=[f"def {name}(x, k):\n    return x[..., ::k] if k > 1 else x"]),
            Part([f"x = {name}(x, x)"], defs=[f"def {name}(*ts):\n    out = ts[0]\n    for t in ts[1:]:\n"
                                              f"        out = out + t\n    return out"]),
            Part([f"x = {name}(x)"], defs=[f"def {inner}(x, c):\n    if c > 2:\n        x = x[:, :2]\n    return x",
                                           f"def {name}(x):\n    return {inner}(x, x.size(1))"]),
            Part([f"x = {name}(x)"], defs=[f"def {inner}(x, c):\n    if c > 2:\n        x = x[:, :2]\n    return x",
                                           f"def {name}(x):\n    return {inner}(x, 3)"]),
            Part(["scale = lambda t: t * 2", "x = scale(x)"]),
            Part([f"def {name}(t):", "    return t + 1", f"x = {name}(x)"]),
            Part([f"def {name}(t):", "    if t.sum() > 0:", "        return t", "    return -t", f"x = {name}(x)"]),
            Part([f"x = torch.cat(list({name}(x)), dim=-1)"],
                 defs=[f"def {name}(x):\n    yield x\n    yield x * 2"]),
            Part([f"x = {name}({{\"a\": x, \"b\": x * 2}})"], defs=[f"def {name}(d):\n    return d[\"a\"] + d[\"b\"]"]),
            Part([f"x = {name}(x)"], defs=[f"def {name}(x):\n    n = x.size(0)\n    while n > 1:\n        n = n // 2\n"
                                           f"    return x * n"]),
            Part([f"x = {name}(x)"], defs=[f"def {name}(x):\n    if x.size(-1) < 2:\n        return x\n"
                                           f"    return x[..., :2]"]),
            Part([f"x = {name}(x, None)"], defs=[f"def {name}(x, bias):\n    if bias is None:\n        return x\n"
                                                 f"    return x + bias"]),
        ]
        return r.choice(forms)

    def class_features(self) -> Part:
        """Attributes, properties, class constants, optional submodules and methods of the owning module."""
        r = self.rng
        name = self.fresh("cfg_")
        forms = [
            Part([f"if self.{name} is not None:", f"    x = self.{name}(x)"],
                 [f"self.{name} = {r.choice(['None', 'nn.LayerNorm(4)', 'nn.Identity()'])}"], uses_self=True),
            Part([f"if self.{name} == \"relu\":", "    x = F.relu(x)", "else:", "    x = torch.tanh(x)"],
                 ["self." + name + " = " + r.choice(['"relu"', '"tanh"'])], uses_self=True),
            Part([f"k = self.{name}[0] if isinstance(self.{name}, (tuple, list)) else self.{name}", "x = x[..., ::k]"],
                 [f"self.{name} = {r.choice(['(2, 2)', '2', '[1]'])}"], uses_self=True),
            Part([f"assert self.{name} > 0", f"x = x * self.{name}"], [f"self.{name} = {r.randint(1, 3)}"],
                 uses_self=True),
            Part(["assert x is not None", "x = x + 0"]),
            Part(["with torch.no_grad():", "    s = x.sum()", "x = x - s"]),
            Part([f"for i, layer in enumerate(self.{name}):", "    if i == 0:", "        x = layer(x)"],
                 [f"self.{name} = nn.ModuleList([nn.Identity(), nn.Identity()])"], uses_self=True),
            Part([f"x = self.{name}(x) if self.training else x"], [f"self.{name} = nn.Dropout(0.1)"], uses_self=True),
            Part([f"x = getattr(self, \"{name}\")(x)"], [f"self.{name} = nn.Identity()"], uses_self=True),
            Part([f"if hasattr(self, \"{name}\"):", f"    x = self.{name}(x)"], [f"self.{name} = nn.Identity()"],
                 uses_self=True),
            Part([f"x = x * self.{name}.weight.sum()"], [f"self.{name} = nn.Linear(4, 4)"], uses_self=True),
            Part([f"if self.{name}.weight.shape[0] > 2:", "    x = x * 2"], [f"self.{name} = nn.Linear(4, 4)"],
                 uses_self=True),
            Part([f"if self.{name}.sum() > 0:", "    x = x * 2"],
                 [f"self.register_buffer(\"{name}\", torch.ones(3))"], uses_self=True),
            Part([f"if self.{name}.sum() > 0:", "    x = x * 2"], [f"self.{name} = nn.Parameter(torch.ones(3))"],
                 uses_self=True),
        ]
        return r.choice(forms)

    def installed_libraries(self) -> Part:
        """Calls into an installed library (einops) whose own code decides what a traced value does there: its
        functions on the input or on a buffer, its layers as submodules (alone, in a Sequential), a call inside a
        function registered with `torch.fx.wrap`."""
        r = self.rng
        name = self.fresh("ein_")
        imports = "import einops\nfrom einops import pack, rearrange, reduce, repeat\n" \
                  "from einops.layers.torch import EinMix, Rearrange, Reduce"
        forms = [
            Part(["x = rearrange(x, \"b c -> b c\")"]),
            Part(["x = rearrange(x, \"b ... -> b (...)\")"]),
            Part(["x = reduce(x, \"b c -> b c\", \"sum\")"]),
            Part(["x = einops.repeat(x, \"b c -> b c\")"]),
            Part([f"{name}, _ = pack([x, x], \"b *\")", "x = x + 0"]),
            Part([f"x = x + rearrange(self.{name}, \"n -> n\").sum()"],
                 [f"self.register_buffer(\"{name}\", torch.ones(4))"], uses_self=True),
            Part([f"x = self.{name}(x)"], [f"self.{name} = Rearrange(\"b c -> b c\")"], uses_self=True),
            Part([f"x = self.{name}(x)"], [f"self.{name} = nn.Sequential(Reduce(\"b c -> b c\", \"mean\"), nn.Identity())"],
                 uses_self=True),
            Part([f"x = self.{name}(x)"], [f"self.{name} = EinMix(\"b c -> b d\", weight_shape=\"c d\", c=4, d=4)"],
                 uses_self=True),
            Part([f"x = {name}(x)"], defs=[f"@torch.fx.wrap\ndef {name}(x):\n    return rearrange(x, \"b c -> b c\")"]),
            Part([f"x = {name}(x)"], defs=[f"def {name}(x):\n    return rearrange(x, \"b c -> b c\")"]),
        ]
        part = r.choice(forms)
        part.defs = [imports, *part.defs]
        return part

    SNIPPETS = ("returns_and_calls", "class_features", "tensor_ops", "shape_arithmetic", "control_on_size", "control_on_value", "control_on_config", "containers",
                "loops", "builtins_and_indexing", "library_check", "helper_with_size", "wrapped_helper",
                "module_hazards", "installed_libraries")
    WEIGHTS = (3, 3, 16, 3, 2, 2, 3, 2, 2, 3, 3, 2, 1, 1, 2)

    def snippet(self, allow_self: bool) -> Part:
        while True:
            name = self.rng.choices(self.SNIPPETS, self.WEIGHTS)[0]
            part = getattr(self, name)()
            if allow_self or not part.uses_self:
                return part

    # -- program assembly -----------------------------------------------------------------------------------------
    def body(self, count: int, allow_self: bool) -> tuple[list[list[str]], list[str], list[str]]:
        """Snippets for one function body: its statement blocks, `__init__` lines and module-level definitions."""
        blocks, init, defs = [], [], []
        for _ in range(count):
            part = self.snippet(allow_self)
            blocks.append(part.body)
            init += part.init
            defs += part.defs
        return blocks, init, defs

    def program(self) -> str:
        r = self.rng
        defs: list[str] = []
        classes: list[str] = []
        init: list[str] = []
        forward: list[str] = []
        # helpers called from forward with the tensor (and sometimes its size or a flag)
        for _ in range(r.choice([0, 0, 1, 1, 2])):
            helper = self.fresh("helper")
            blocks, _, more = self.body(1, allow_self=False)
            defs += more
            signature = r.choice(["x", "x, scale=1.0", "x, flag=False"])
            extra = []
            if "flag" in signature:
                extra = ["if flag:", "    x = x.flip(0)"]
            if "scale" in signature:
                extra = ["if scale != 1.0:", "    x = x * scale"] if r.random() < 0.5 else ["x = x * scale"]
            lines = extra + [line for block in blocks for line in block]
            defs.append("\n".join([f"def {helper}({signature}):", *("    " + line for line in lines), "    return x"]))
            call = r.choice([f"{helper}(x)", f"{helper}(x)" if "," not in signature else
                             r.choice([f"{helper}(x, {'2.0' if 'scale' in signature else 'True'})",
                                       f"{helper}(x)"])])
            forward.append([f"x = {call}"])
        # submodules
        for _ in range(r.choice([0, 0, 1, 1, 2])):
            block = self.fresh("Block")
            blocks, block_init, more = self.body(1, allow_self=True)
            defs += more
            returns_pair = r.random() < 0.2
            cls_lines = [f"class {block}(nn.Module):", "    def __init__(self):", "        super().__init__()"]
            cls_lines += ["        " + line for line in block_init]
            cls_lines += ["        self.proj = nn.Linear(4, 4)"]
            signature = r.choice(["x", "x", "x, mask=None"])
            cls_lines += ["", f"    def forward(self, {signature}):"]
            extra = ["if mask is not None:", "    x = x * mask"] if "mask" in signature else []
            cls_lines += ["        " + line for line in extra + [line for b in blocks for line in b]]
            cls_lines += ["        return x, x.sum()" if returns_pair else "        return x"]
            classes.append("\n".join(cls_lines))
            attribute = self.fresh("block")
            how = r.choice(["plain", "plain", "sequential", "modulelist"])
            if how == "plain":
                init.append(f"self.{attribute} = {block}()")
                forward.append([f"x, _ = self.{attribute}(x)" if returns_pair else f"x = self.{attribute}(x)"])
                if returns_pair and r.random() < 0.5:
                    forward.append([f"a, b = self.{attribute}(x)", "x = a * b if b.numel() > 0 else a"])
            elif how == "sequential" and not returns_pair:
                init.append(f"self.{attribute} = nn.Sequential({block}(), nn.ReLU())")
                forward.append([f"x = self.{attribute}(x)"])
            else:
                init.append(f"self.{attribute} = nn.ModuleList([{block}() for _ in range(2)])")
                forward.append([f"for blk in self.{attribute}:", "    x, _ = blk(x)" if returns_pair else "    x = blk(x)"])
        blocks, more_init, more = self.body(r.randint(1, 2), allow_self=True)
        defs += more
        init += more_init
        forward += blocks
        r.shuffle(forward)
        signature = r.choice(["x", "x", "x", "x, scale=1.0", "x, mask=None", "x, return_all=False"])
        prologue = []
        if "scale" in signature:
            prologue = r.choice([["x = x * scale"], ["if scale != 1.0:", "    x = x * scale"]])
        if "mask" in signature:
            prologue = r.choice([["if mask is not None:", "    x = x * mask"], []])
        epilogue = ["return x"]
        if "return_all" in signature:
            epilogue = r.choice([["if return_all:", "    return x, x", "return x"], ["return x"]])
        m_lines = ["class M(nn.Module):", "    def __init__(self):", "        super().__init__()",
                   "        self.proj = nn.Linear(4, 4)"]
        m_lines += ["        " + line for line in init]
        m_lines += ["", f"    def forward(self, {signature}):"]
        m_lines += ["        " + line for line in prologue + [line for block in forward for line in block] + epilogue]
        unique_defs = list(dict.fromkeys(defs))
        pieces = [HEADER] + ["\n\n" + d + "\n" for d in unique_defs] + ["\n\n" + c + "\n" for c in classes]
        pieces.append("\n\n" + "\n".join(m_lines) + "\n")
        return "".join(pieces)


def generate(seed: int, index: int) -> str:
    return Generator(random.Random(seed * 1_000_003 + index)).program()


# -- torch's side -------------------------------------------------------------------------------------------------
# A worker: imports torch once, then for each program path read on stdin, imports the program, builds its last
# nn.Module class and traces it with plain symbolic_trace (a time limit per program), and writes one JSON line.
_WORKER = r"""
import importlib.util, json, signal, sys, traceback, warnings
warnings.simplefilter("ignore")
import torch, torch.fx as fx, torch.nn as nn

def alarm(signum, frame):
    raise TimeoutError("time limit")

signal.signal(signal.SIGALRM, alarm)
timeout = int(sys.argv[1])
print("ready", flush=True)
for line in sys.stdin:
    path = line.strip()
    name = "_differential_" + path.rsplit("/", 1)[-1][:-3]
    stage = "import"
    signal.alarm(timeout)
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        classes = [v for v in vars(module).values()
                   if isinstance(v, type) and issubclass(v, nn.Module) and v.__module__ == name]
        stage = "build"
        model = classes[-1]()
        stage = "trace"
        fx.symbolic_trace(model)
        result = {"stage": None}
    except BaseException as error:
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == path]
        result = {"stage": stage, "type": type(error).__name__,
                  "message": (str(error).splitlines() or [""])[0][:300],
                  "line": frames[-1].lineno if frames else None}
    finally:
        signal.alarm(0)
        sys.modules.pop(name, None)
    print(json.dumps(result), flush=True)
"""


class _Worker:
    def __init__(self, timeout: int) -> None:
        self.timeout = timeout
        self.process = subprocess.Popen([sys.executable, "-c", _WORKER, str(timeout)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.process.stdout.readline()  # "ready": torch is imported

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def _run_on(worker: _Worker, path: str) -> tuple[dict, _Worker]:
    """One program on one worker; a worker that dies or hangs is replaced."""
    import select

    worker.process.stdin.write(path + "\n")
    worker.process.stdin.flush()
    ready, _, _ = select.select([worker.process.stdout], [], [], worker.timeout * 2 + 30)
    line = worker.process.stdout.readline() if ready else ""
    if line:
        return json.loads(line), worker
    worker.close()
    return {"stage": "crash", "type": "WorkerLost", "message": "", "line": None}, _Worker(worker.timeout)


def trace_all(paths: list[Path], workers: int, timeout: int) -> dict[str, dict]:
    """Trace each program in a pool of worker processes (each imports torch once)."""
    from concurrent.futures import ThreadPoolExecutor
    from queue import Queue

    pool: Queue = Queue()
    for _ in range(max(1, workers)):
        pool.put(_Worker(timeout))
    results: dict[str, dict] = {}

    def one(path: Path) -> None:
        worker = pool.get()
        try:
            results[str(path)], worker = _run_on(worker, str(path))
        finally:
            pool.put(worker)

    with ThreadPoolExecutor(max_workers=max(1, workers)) as threads:
        list(threads.map(one, paths))
    while not pool.empty():
        pool.get().close()
    return results


# -- jitlint's side -----------------------------------------------------------------------------------------------
def lint_all(directory: Path, jitlint: list[str]) -> dict[str, list[dict]]:
    directory = directory.resolve()
    completed = subprocess.run([*jitlint, "check", "--target", "fx", "--output-format", "json", "--no-cache",
                                "--exit-zero", str(directory)], capture_output=True, text=True, cwd=directory)
    if completed.returncode not in (0, 1):
        raise RuntimeError(f"jitlint failed: {completed.stderr[-2000:]}")
    findings: dict[str, list[dict]] = defaultdict(list)
    for finding in json.loads(completed.stdout or "[]"):
        findings[str((directory / finding["filename"]).resolve())].append(finding)
    return findings


# -- comparison ---------------------------------------------------------------------------------------------------
def message_group(result: dict) -> str:
    if result["stage"] is None:
        return "traces"
    text = f"{result['type']}: {result['message']}"
    text = re.sub(r"Proxy\([^)]*\)", "Proxy(_)", text)
    text = re.sub(r"'[A-Za-z_][\w.]*'", "'_'", text) if "Proxy" not in text else text
    text = re.sub(r"\b\d+\b", "N", text)
    text = re.sub(r"Got key: \w+", "Got key: _", text)
    if result["stage"] != "trace":
        text = f"[{result['stage']}] {text}"
    return text[:110]


def verdict(result: dict, errors: list[dict]) -> tuple[bool, str]:
    """(agrees, why) for one program."""
    lines = {f["location"]["row"] for f in errors}
    if result["stage"] is None:
        return (not errors, "traces; jitlint silent" if not errors else f"traces, but jitlint errors at {sorted(lines)}")
    if result["line"] is None:
        return (bool(errors), "no line in the program; jitlint " + ("errs" if errors else "silent"))
    if result["line"] in lines:
        return True, "torch's line flagged"
    return False, f"torch fails at line {result['line']}; jitlint errors at {sorted(lines)}"


def run(seed: int, count: int, workers: int, timeout: int, jitlint: list[str], out: Path | None,
        keep: Path | None = None) -> dict:
    directory = Path(tempfile.mkdtemp(prefix=f"diff_fx_{seed}_")) if keep is None else keep
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(count):
        path = directory / f"prog_{seed}_{index:05d}.py"
        path.write_text(generate(seed, index))
        paths.append(path.resolve())
    traced = trace_all(paths, workers, timeout)
    findings = lint_all(directory, jitlint)
    groups: dict[str, Counter] = defaultdict(Counter)
    examples: dict[str, list[tuple[Path, str]]] = defaultdict(list)
    agree_total = 0
    false_errors = 0
    for path in paths:
        result = traced[str(path)]
        errors = [f for f in findings.get(str(path), []) if f.get("severity") == "error"]
        agrees, why = verdict(result, errors)
        group = message_group(result)
        groups[group]["programs"] += 1
        groups[group]["agree"] += agrees
        agree_total += agrees
        if result["stage"] is None and errors:
            false_errors += 1
        if not agrees:
            examples[group].append((path, why))
    summary = {"seed": seed, "count": count, "agree": agree_total, "agreement": agree_total / max(count, 1),
               "traced": sum(1 for p in paths if traced[str(p)]["stage"] is None),
               "errors_on_traced": false_errors, "groups": {g: dict(c) for g, c in groups.items()}}
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(out / "disagreements", ignore_errors=True)
        for group, items in examples.items():
            folder = out / "disagreements" / re.sub(r"\W+", "_", group)[:60]
            folder.mkdir(parents=True, exist_ok=True)
            for path, why in items[:5]:
                result = traced[str(path)]
                errors = findings.get(str(path), [])
                head = [f"# torch: {result}", f"# verdict: {why}"]
                head += [f"# jitlint: {f['location']['row']}: {f['code']} {f['message'][:100]}" for f in errors]
                (folder / path.name).write_text("\n".join(head) + "\n" + path.read_text())
        (out / "summary.json").write_text(json.dumps(summary, indent=1))
        (out / "report.md").write_text(report(summary))
    return summary


def report(summary: dict) -> str:
    lines = [f"seed {summary['seed']}: {summary['count']} programs, {summary['traced']} trace; agreement "
             f"{summary['agree']}/{summary['count']} = {summary['agreement']:.3f}; jitlint errors in "
             f"{summary['errors_on_traced']} programs that trace", "",
             "| torch's result | programs | agree |", "| --- | --- | --- |"]
    for group, counts in sorted(summary["groups"].items(), key=lambda item: -item[1]["programs"]):
        lines.append(f"| {group.replace('|', '/')} | {counts['programs']} | {counts.get('agree', 0)} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2)))
    parser.add_argument("--timeout", type=int, default=30, help="seconds per program in torch")
    parser.add_argument("--jitlint", default=f"{shlex.quote(sys.executable)} -m jitlint",
                        help="the command that runs jitlint")
    parser.add_argument("--out", type=Path, help="where to write the report and the disagreeing programs")
    parser.add_argument("--keep", type=Path, help="write the programs here (default: a temporary directory)")
    parser.add_argument("--show", type=int, help="print program N of the seed and exit")
    arguments = parser.parse_args()
    if arguments.show is not None:
        print(generate(arguments.seed, arguments.show))
        return 0
    summary = run(arguments.seed, arguments.count, arguments.workers, arguments.timeout,
                  shlex.split(arguments.jitlint), arguments.out, arguments.keep)
    print(report(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())

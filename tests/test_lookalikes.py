"""Code that looks wrong but that torch 2.13 scripts: jitlint must stay silent on every one.

Each case is checked both ways: jitlint reports nothing, and torch.jit.script really accepts it (so a silent
test cannot be wrong about torch). Sources: folk rules about TorchScript that torch no longer enforces, and the
false-positive hazards of each implemented rule.
"""

import textwrap

import pytest

from oracles.script import script_source

HEADER = """\
import math
from typing import Any, Dict, Final, List, Optional, Tuple, Union

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.jit import is_scripting


"""


def module(forward_body: str, init: str = "", signature: str = "self, x", extra: str = "", header: str = "") -> str:
    init_block = ""
    if init:
        init_block = "    def __init__(self):\n        super().__init__()\n" + textwrap.indent(textwrap.dedent(init), " " * 8)
    body = textwrap.indent(textwrap.dedent(forward_body), " " * 8)
    return HEADER + header + f"class M(nn.Module):\n{init_block}    def forward({signature}):\n{body}{extra}"


LAYERS = "self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])\n"

CASES = {
    # -- obsolete folk rules: generators and comprehensions ----------------------------------------------
    "list-of-generator": module("return torch.stack(list(t * 2 for t in xs))", signature="self, xs: List[torch.Tensor]"),
    "any-all-of-generator": module(
        "if any(t.numel() == 0 for t in xs) or all(t.dim() > 0 for t in xs):\n    return xs[0]\nreturn xs[1]",
        signature="self, xs: List[torch.Tensor]",
    ),
    "plain-list-comprehension": module("return torch.stack([t * 2 for t in xs])", signature="self, xs: List[torch.Tensor]"),
    "dict-comprehension-without-if": module("d = {str(i): i for i in xs}\nreturn len(d)", signature="self, xs: List[int]"),
    "sum-of-int-generator": module("return x * sum(x.size(i) for i in range(2))"),
    "sum-of-int-list-comprehension": module("return x * sum([x.size(i) for i in range(2)])"),
    "sum-of-int-list": module("return x * sum(xs)", signature="self, x, xs: List[int]"),
    "sum-of-numel": module("return sum(t.numel() for t in xs)", signature="self, xs: List[torch.Tensor]"),
    "torch-sum-and-method-sum": module("return torch.sum(x) + x.sum()"),
    "module-list-comprehension": module("return torch.stack([m(x) for m in self.layers])", init=LAYERS),
    "comprehension-if-in-init": module("return self.layers[0](x)", init="mods = [nn.Linear(4, 4) for i in range(3) if i > 0]\nself.layers = nn.ModuleList(mods)\n"),
    "comprehension-if-in-ignored": module(
        "return self.eager(x)",
        extra="""
    @torch.jit.ignore
    def eager(self, x: torch.Tensor) -> torch.Tensor:
        return torch.stack([t for t in x if t.sum() > 0])
""",
    ),
    # -- obsolete folk rules: module containers ------------------------------------------------------------
    "enumerate-zip-len-over-modulelist": module(
        "for i, layer in enumerate(self.layers):\n    x = layer(x)\nfor a, b in zip(self.layers, self.layers):\n    x = a(b(x))\nreturn x * len(self.layers)",
        init=LAYERS,
    ),
    "negative-literal-index": module("return self.layers[-1](self.layers[0](x))", init=LAYERS),
    "final-constant-index": module(
        "return self.layers[self.k](x)", init=LAYERS, header="", extra="",
    ).replace("class M(nn.Module):\n", "class M(nn.Module):\n    k: Final[int] = 1\n"),
    "constants-index": module("return self.layers[self.k](x)", init=LAYERS).replace(
        "class M(nn.Module):\n", "class M(nn.Module):\n    __constants__ = ['k']\n    k = 1\n"
    ),
    "slice-without-calling": module("return x * len(self.layers[1:])", init=LAYERS),
    "moduledict-items-values-in-literal": module(
        "for k, m in self.d.items():\n    x = m(x)\nfor m in self.d.values():\n    x = m(x)\nif 'a' in self.d:\n    x = self.d['a'](x)\nreturn x",
        init="self.d = nn.ModuleDict({'a': nn.Linear(4, 4)})\n",
    ),
    "parameterdict-literal-key": module("return x * self.p['a']", init="self.p = nn.ParameterDict({'a': nn.Parameter(torch.ones(4))})\n"),
    "children-loop": module("for m in self.children():\n    x = m(x)\nreturn x", init="self.one = nn.Linear(4, 4)\n"),
    "modules-and-named-modules-loops": module(
        "return x", init="self.one = nn.Linear(4, 4)\n",
        extra="""

    @torch.jit.export
    def walk(self, x: torch.Tensor) -> torch.Tensor:
        names = ""
        for name, m in self.named_modules():
            names = names + name
        for m in self.modules():
            x = m(x)
        return x * len(names)
""",
    ),
    "modulelist-index-typed-by-an-interface": module(
        "a: Step = self.layers[i]\nb = torch.jit.annotate(Step, self.layers[i + 1])\nreturn a.forward(x) + b.forward(x)",
        init=LAYERS, signature="self, x, i: int",
        header="@torch.jit.interface\nclass Step(nn.Module):\n    def forward(self, input: torch.Tensor) -> torch.Tensor:\n"
               "        pass\n\n\n",
    ),
    "named-buffers-loop": module(
        "for name, b in self.named_buffers():\n    x = x + b\nreturn x",
        init="self.register_buffer('scale', torch.ones(4))\n",
    ),
    "plain-list-index-by-variable": module("s = [1, 2, 3]\ni = 1\nreturn x * s[i]"),
    "isinstance-in-modulelist-loop": module(
        "for m in self.layers:\n    if isinstance(m, nn.Linear):\n        x = m(x)\nreturn x", init=LAYERS
    ),
    "tensor-indexed-by-variable": module("i = 0\nreturn x[i]"),
    "kwargs-in-submodule-call": module("return self.lin(input=x)", init="self.lin = nn.Linear(4, 4)\n"),
    # -- obsolete folk rules: types and annotations --------------------------------------------------------
    "unannotated-mask-none": module("if mask is not None:\n    x = x * mask\nreturn x", signature="self, x, mask=None"),
    "pep604-and-pep585": module(
        "return x if n is None else x * len(xs)", signature="self, x, xs: list[int], n: int | None = None"
    ),
    "bare-tuple-return": module("return x, x", signature="self, x") .replace("def forward(self, x):", "def forward(self, x) -> tuple:"),
    "any-and-union": module(
        "if isinstance(y, int):\n    return x * y\nreturn x", signature="self, x, y: Union[int, float], z: Any = None"
    ),
    "device-dtype-complex-annotations": module(
        "return x.to(device=d, dtype=t)", signature="self, x, d: torch.device, t: torch.dtype, c: complex = 1j"
    ),
    "fixed-tuple-annotation": module("return x * n[0]", signature="self, x, n: Tuple[int, int]"),
    "default-tensor-value": module("return x", signature="self, x, k=torch.ones(1)"),
    "kwonly-annotated-without-default": module("return x * s", signature="self, x, *, s: float"),
    "unannotated-param-arithmetic-and-truthiness": module(
        "if flag:\n    x = x + n\nreturn x.view(-1, k) * x.size(k) * n", signature="self, x, n, flag, k"
    ),
    "unannotated-param-rebound-before-range": module(
        "n = int(n.item())\nfor _ in range(n):\n    x = x + 1\nreturn x", signature="self, x, n"
    ),
    "annotated-param-in-range-and-compare": module(
        "for _ in range(n):\n    x = x + 1\nif mode == 'a':\n    x = x * 2\nreturn x", signature="self, x, n: int, mode: str"
    ),
    "unsupported-annotation-in-uncalled-helper": module("return x", extra="""
    def helper(self, f: Any) -> Any:
        return f
"""),
    # -- numpy and eager-only code -------------------------------------------------------------------------------
    "numpy-in-init": module("return x * self.s", init="self.s = float(np.sqrt(4.0))\n"),
    "numpy-constant": module("return x * np.pi"),
    "numpy-in-ignored-and-unused": module("return self.a(x) + self.b(x)", extra="""
    @torch.jit.ignore
    def a(self, x: torch.Tensor) -> torch.Tensor:
        return torch.from_numpy(x.numpy())

    @torch.jit.unused
    def b(self, x: torch.Tensor) -> torch.Tensor:
        return torch.from_numpy(x.numpy())
"""),
    "numpy-in-uncalled-helper": module("return x", extra="""
    def debug(self, x):
        return x.numpy()
"""),
    "numpy-in-unused-property": module("return x", extra="""
    @property
    def p(self):
        return torch.zeros(1).numpy()
""").replace("class M(nn.Module):\n", "class M(nn.Module):\n    __jit_unused_properties__ = ['p']\n"),
    "numpy-under-not-is-scripting": module("if not torch.jit.is_scripting():\n    x = torch.from_numpy(x.numpy())\nreturn x"),
    "numpy-in-else-of-is-scripting": module("if torch.jit.is_scripting():\n    return x\nelse:\n    return torch.from_numpy(x.numpy())"),
    "numpy-after-early-return": module("if torch.jit.is_scripting():\n    return x\nreturn torch.from_numpy(x.numpy())"),
    "numpy-alias-import-is-scripting": module("if not is_scripting():\n    x = torch.from_numpy(x.numpy())\nreturn x"),
    "numpy-not-is-scripting-and-cond": module("if x.sum() > 0 and not torch.jit.is_scripting():\n    x = torch.from_numpy(x.numpy())\nreturn x"),
    "numpy-is-scripting-or-cond": module("if torch.jit.is_scripting() or x.sum() > 0:\n    return x\nreturn torch.from_numpy(x.numpy())"),
    "numpy-in-ternary-dead-arm": module("return x if torch.jit.is_scripting() else torch.from_numpy(x.numpy())"),
    "numpy-in-elif-dead-branch": module("if x.sum() > 0:\n    return x\nelif not torch.jit.is_scripting():\n    return torch.from_numpy(x.numpy())\nreturn x"),
    "numpy-under-no-grad-in-ignored": module("return self.a(x)", extra="""
    @torch.jit.ignore
    @torch.no_grad()
    def a(self, x: torch.Tensor) -> torch.Tensor:
        return torch.from_numpy(x.numpy())
"""),
    "ignore-and-unused-with-varargs": module("return self.a(x)", extra="""
    @torch.jit.ignore
    def a(self, *args):
        return args[0]
"""),
    "ignored-forward": module("return x.numpy()").replace("    def forward", "    @torch.jit.ignore\n    def forward"),
    # -- isinstance folding and __prepare_scriptable__ (torchvision's idioms) ---------------------------------
    "not-isinstance-tensor-on-tensor-param-is-dead": module(
        "if not isinstance(x, torch.Tensor):\n    x = torch.from_numpy(x.numpy())\nreturn x", signature="self, x: torch.Tensor"
    ),
    "isinstance-tensor-early-return": module("if isinstance(x, torch.Tensor):\n    return x\nreturn torch.from_numpy(x.numpy())"),
    "isinstance-builtin-false-on-tensor": module("if isinstance(x, (list, tuple)) or isinstance(x, int):\n    return torch.from_numpy(x.numpy())\nreturn x"),
    "isinstance-against-list-str-and-typed-list": module(
        "if isinstance(ys, list) or isinstance(ys, List[int]) or isinstance(x, str):\n    return x\nreturn x * 2",
        signature="self, x, ys: List[int]",
    ),
    "final-bool-flag-false-prunes-its-branch": module(
        "if self.fork_feat:\n    return torch.from_numpy(x.numpy())\nif self.flag and x.sum() > 0:\n    x = x.numpy()\nreturn x",
        init="self.fork_feat = False\nself.flag = False\n",
    ).replace("class M(nn.Module):\n", "class M(nn.Module):\n    fork_feat: Final[bool]\n    __constants__ = ['flag']\n"),
    "final-bool-flag-from-an-init-default": HEADER + textwrap.dedent("""
        class M(nn.Module):
            fork_feat: torch.jit.Final[bool]

            def __init__(self, fork_feat: bool = False):
                super().__init__()
                self.fork_feat = fork_feat

            def forward(self, x):
                if self.fork_feat:
                    return getattr(self, f"norm{x.dim()}")(x)
                return x
    """),
    "isinstance-list-on-list-param": module(
        "if not isinstance(ys, list):\n    return torch.from_numpy(x.numpy())\nreturn x", signature="self, x, ys: List[int]"
    ),
    "param-rebound-from-tensor-returning-helper-keeps-type": HEADER + textwrap.dedent("""
        def resize(x: torch.Tensor) -> torch.Tensor:
            return x * 2

        class M(nn.Module):
            def forward(self, img: torch.Tensor) -> torch.Tensor:
                img = resize(img)
                if not isinstance(img, torch.Tensor):
                    img = torch.from_numpy(img.numpy())
                return img
    """),
    "prepare-scriptable-replaces-the-module": HEADER + textwrap.dedent("""
        class Scriptable(nn.Module):
            def forward(self, x):
                return x

        class M(nn.Module):
            def __prepare_scriptable__(self):
                return Scriptable()

            def forward(self, x, *args):
                return torch.from_numpy(x.numpy())
    """),
    # -- is_scripting / tracing guards ---------------------------------------------------------------------------
    "tracing-guard-with-scriptable-branches": module("if torch.jit.is_tracing():\n    return x * 2\nreturn x"),
    "tracing-state-guard-with-scriptable-branches": module("if torch._C._get_tracing_state():\n    return x * 2\nreturn x"),
    "is-scripting-variable-with-scriptable-branches": module("s = torch.jit.is_scripting()\nif not s:\n    x = x * 2\nreturn x"),
    "is-scripting-in-forward": module("if torch.jit.is_scripting():\n    return x\nreturn x + 1"),
    "no-grad-decorated-forward": module("return x * 2").replace("    def forward", "    @torch.no_grad()\n    def forward"),
    "autocast-and-no-grad-blocks": module("with torch.no_grad():\n    x = x * 2\nreturn x"),
    # -- other §0.4 items that must not trip the rules -----------------------------------------------------------
    "misc-builtins-and-formatting": module(
        "a, b = divmod(7, 2)\ns = '{:.2f}'.format(float(a)) + '%d' % b + f'{b}'\nys = sorted([3, 1, 2])\nreturn x * abs(-1) * float('inf') * len(s) * ys[0] * max(a, b)"
    ),
    "lambda-and-try-outside-compiled-code": HEADER + textwrap.dedent("""
        SORT_KEY = lambda t: t.numel()

        def eager_only(x):
            try:
                return x.numpy()
            except Exception:
                return None

        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.key = sorted([1, 2], key=lambda v: -v)[0]

            def forward(self, x):
                return x * self.key
    """),
    "frontend-constructs-in-init-and-ignored-methods": module(
        "return self.eager(x)",
        init="try:\n    k = 1\nexcept Exception:\n    k = 2\ndef make():\n    return nn.ReLU()\n"
             "self.act = make()\nself.pairs = [(a, b) for a in range(2) for b in range(2)]\n",
        extra="""
    @torch.jit.ignore
    def eager(self, x: torch.Tensor) -> torch.Tensor:
        def inner(t):
            return t
        try:
            return inner(x)
        except RuntimeError:
            return x
""",
    ),
    "generator-helper-never-called": HEADER + textwrap.dedent("""
        def chunks(xs):
            for x in xs:
                yield x

        class M(nn.Module):
            def forward(self, x):
                return x
    """),
    "property-of-an-unused-helper-class": HEADER + textwrap.dedent("""
        class Meta:
            @property
            def device(self):
                return next(iter([1]))

        class M(nn.Module):
            def forward(self, x):
                return x
    """),
    # -- syntax hazards ------------------------------------------------------------------------------------------
    "set-call-and-sets-in-init": module("s = set()\nreturn x", init="self.k = len({1, 2})\n"),
    "tuple-star-unpacking": module("s = (1, -1)\nreturn x.view(*s) + x.view(*(1, -1))"),
    "star-args-in-ignored": module("return self.show(x)", extra="""
    @torch.jit.ignore
    def show(self, x: torch.Tensor) -> torch.Tensor:
        args = [1, 2]
        print(*args, sep=", ")
        return x
"""),
    "imports-in-init-and-ignored": module("return self.eager(x)", init="import math\nself.k = math.pi\n", extra="""
    @torch.jit.ignore
    def eager(self, x: torch.Tensor) -> torch.Tensor:
        import os
        return x
"""),
    "class-level-optional-declaration": module(
        "b = self.bias\nif b is not None:\n    x = x + b\nreturn x", init="self.bias = torch.zeros(4)\n"
    ).replace("class M(nn.Module):\n", "class M(nn.Module):\n    bias: Optional[torch.Tensor]\n"),
    "scriptable-context-managers": module(
        "with torch.no_grad():\n    x = x * 2\nwith torch.autocast('cpu'):\n    x = x * 2\n"
        "with torch.autograd.profiler.record_function('a'):\n    x = x * 2\nreturn x"
    ),
    "fstring-without-spec-format-and-percent": module("s = f'{x.size(0)}' + '{:.2f}'.format(1.0) + '%d' % 3\nreturn x"),
    # -- containers ----------------------------------------------------------------------------------------------
    "unused-plain-list-and-list-of-ints": module("return x * self.dims[0]", init="self.extra = [nn.Linear(4, 4)]\nself.dims = [1, 2]\n"),
    "getattr-with-literal-and-in-init": module("return getattr(self, 'lin')(x)", init="self.lin = nn.Linear(4, 4)\nself.other = getattr(self, 'lin')\n"),
    "break-in-range-and-list-loops": module("for i in range(3):\n    if i > 1:\n        break\n    x = x + i\nfor v in [1, 2]:\n    if v > 1:\n        continue\n    x = x * v\nreturn x"),
    "modulelist-append-in-init": module("return self.layers[0](x)", init="self.layers = nn.ModuleList()\nself.layers.append(nn.Linear(4, 4))\n"),
    "sequential-subclass-with-its-own-forward-takes-two": HEADER + textwrap.dedent("""
        class AppendList(nn.Sequential):
            def forward(self, x: torch.Tensor, acc: List[torch.Tensor]) -> torch.Tensor:
                for module in self:
                    acc.append(module(x))
                return torch.cat(acc, dim=1)

        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.mid = AppendList(nn.Linear(4, 4), nn.Linear(4, 4))

            def forward(self, x):
                acc: List[torch.Tensor] = []
                return self.mid(x, acc)
    """),
    "sequential-called-with-one-argument": module("return self.seq(x)", init="self.seq = nn.Sequential(nn.Linear(4, 4))\n"),
    # -- calls -----------------------------------------------------------------------------------------------------
    "math-warnings-sys-ordereddict": module(
        "warnings.warn('a')\nd = collections.OrderedDict()\nreturn x * math.sqrt(2.0) * (sys.maxsize > 0)",
        header="import collections\nimport sys\nimport warnings\n\n",
    ),
    "legacy-typed-constructors-and-annotation": module("t: torch.Tensor = torch.FloatTensor([1.0])\nreturn x + t + torch.LongTensor([1])"),
    "supported-builtins": module("a = hasattr(self, 'training')\nb = hash(1) + ord('a')\nc = chr(65) + hex(3) + bin(3)\nt = type(x)\nreturn x * b"),
    "parameters-in-init": module("return x * self.n", init="self.lin = nn.Linear(4, 4)\nself.n = sum(p.numel() for p in self.parameters())\n"),
    "super-init-and-super-with-args": HEADER + textwrap.dedent("""
        class M(nn.Module):
            def __init__(self):
                super(M, self).__init__()

            def forward(self, x):
                return x
    """),
    "staticmethod-through-class-and-classmethod": HEADER + textwrap.dedent("""
        class M(nn.Module):
            @staticmethod
            def helper(x: torch.Tensor) -> torch.Tensor:
                return x + 1

            def forward(self, x):
                return M.helper(x)
    """),
    "register-in-init": module("return x + self.last", init="self.register_buffer('last', torch.zeros(1))\n"),
    "requires-grad-underscore-and-grad-read": module("y = x.detach().requires_grad_()\ng = x.grad\nreturn y"),
    "sort-reverse-sorted-and-positional-split": module(
        "xs = [3, 1]\nxs.sort(reverse=True)\nys = sorted(xs)\nparts = 'a.b'.split('.', 1)\nreturn x * ys[0] * len(parts) * round(1.5)"
    ),
    "checkpoint-under-is-scripting-guard": module(
        "if not torch.jit.is_scripting() and self.training:\n    return cp.checkpoint(self.lin, x, use_reentrant=False)\nreturn self.lin(x)",
        init="self.lin = nn.Linear(4, 4)\n", header="import torch.utils.checkpoint as cp\n\n",
    ),
    "scriptable-torch-apis": module(
        "n = torch.numel(x)\nf = torch.is_floating_point(x)\nc = torch.compiler.is_compiling()\ng = torch.is_grad_enabled()\n"
        "return torch.as_tensor([1.0]) + x.new_zeros(1) * n"
    ),
    "module-attributes-functions-classes-and-aliases": HEADER + textwrap.dedent("""
        from collections import namedtuple

        EPS = 1e-5
        ACT = torch.relu
        Point = namedtuple("Point", ["x", "y"])

        def helper(t: torch.Tensor) -> torch.Tensor:
            return t * 2

        class M(nn.Module):
            def forward(self, x, eps: float = EPS):
                EPS_LOCAL = 3
                if not torch.jit.is_scripting():
                    x = x * EPS
                p = Point(x, x)
                return ACT(helper(x)) * math.pi * eps * EPS_LOCAL * p.x + x.to(torch.float32)
    """),
    "global-shadowed-by-a-parameter": HEADER + textwrap.dedent("""
        scale = 2.0

        class M(nn.Module):
            def forward(self, x, scale: float = 1.0):
                return x * scale
    """),
    "ignored-method-called-with-tensors-only": module("return self.log(x, x)", extra="""
    @torch.jit.ignore
    def log(self, a, b):
        return a
"""),
    # -- attributes --------------------------------------------------------------------------------------------------
    "attribute-set-in-parent-init": HEADER + textwrap.dedent("""
        class Base(nn.Module):
            def __init__(self):
                super().__init__()
                self.cache = torch.zeros(1)

        class M(Base):
            def forward(self, x):
                self.cache = x
                return x
    """),
    "attribute-registered-or-set-with-setattr": module(
        "self.buf = x\nself.other = x\nreturn x",
        init="self.register_buffer('buf', torch.zeros(1))\nsetattr(self, 'other', torch.zeros(1))\n",
    ),
    "empty-container-filled-in-init-or-reset-by-a-later-method": module(
        "return x * len(self.names) * len(self.keys) * len(self.fusion)",
        init="self.names = {}\nself.names['a'] = 'b'\nself.keys = []\nself.keys.append(1)\n"
             "self.fusion = nn.Sequential(nn.Identity())\n",
        extra="""
    def switch_to_deploy(self):
        self.fusion = []
""",
    ),
    "assert-not-scripting-in-init": module("return x", init="assert not torch.jit.is_scripting()\n"),
    "empty-container-annotated-at-class-level-or-unused": module(
        "return x * len(self.dims)", init="self.dims = []\nself.unused = {}\n"
    ).replace("class M(nn.Module):\n", "class M(nn.Module):\n    dims: List[int]\n"),
    "function-attribute-and-typed-python-object": HEADER + textwrap.dedent("""
        class Cfg:
            def __init__(self, scale: float = 2.0):
                self.scale = scale

        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.act = F.gelu
                self.cfg = Cfg()
                self.unused = lambda t: t

            def forward(self, x):
                return self.act(x) * self.cfg.scale
    """),
    "final-assigned-in-init-and-list-constant": module(
        "return x * self.k * self.dims[0]", init="self.k = 2\nself.dims = [1, 2]\n"
    ).replace("class M(nn.Module):\n", "class M(nn.Module):\n    k: Final[int]\n    __constants__ = ['dims']\n"),
    "modulelist-in-constants": module("return x", init="self.layers = nn.ModuleList([nn.ReLU()])\n").replace(
        "class M(nn.Module):\n", "class M(nn.Module):\n    __constants__ = ['layers']\n"
    ),
    "class-attribute-as-constant-final-or-shadowed": module(
        "return x * self.a * self.b * self.c", init="self.c = 3.0\n"
    ).replace("class M(nn.Module):\n", "class M(nn.Module):\n    __constants__ = ['a']\n    a = 2.0\n    b: Final[float] = 1.0\n    c = 1.0\n"),
    "bool-attribute-truthiness": module("if self.flag and not self.other:\n    x = x + 1\nreturn x", init="self.flag = True\nself.other = False\n"),
    "typed-config-class-and-foreign-base": HEADER + textwrap.dedent("""
        import argparse

        class Cfg:
            def __init__(self, hidden: int = 4):
                self.hidden = hidden

        class Namespace(argparse.Namespace):
            def __init__(self):
                self.k = 2

        class M(nn.Module):
            cfg: Cfg

            def __init__(self):
                super().__init__()
                self.cfg = Cfg()
                self.ns = Namespace()

            def forward(self, x):
                return x * self.cfg.hidden * self.ns.k
    """),
    # -- more obsolete folk rules --------------------------------------------------------------------------------------
    "misc-tensor-idioms": module(
        "y = x.data\nz = x\nsame = x is z\nb = c = x\ndel y\nt = (x, x)\ni = 1\nprint(type(x))\n"
        "return t[i] + x.T + (x @ x.mT) + torch.einsum('ij,jk->ik', x, x)",
        signature="self, x",
    ),
    "raise-formatted-errors": module("if x.dim() > 5:\n    raise ValueError(f'too many dims: {x.dim()}')\nreturn x"),
    "dict-of-zip": module("d = dict(zip(['a', 'b'], [1, 2]))\nreturn x * d['a']"),
    # -- control-flow typing (JIT7xx, JIT206-209): each verified on torch 2.13 --------------------------------------
    "retype-in-straight-line": module("n = x.size(0)\nn = x.sum()\nacc = None\nacc = x\nreturn n + acc"),
    "branch-types-differ-but-unused-after": module("if x.dim() > 1:\n    y = x.flatten()\nelse:\n    y = 0\nreturn x"),
    "branch-none-joins-into-optional": module("if x.dim() > 1:\n    y = x.flatten()\nelse:\n    y = None\nreturn y"),
    "one-branch-not-read-after": module("if x.dim() > 1:\n    y = x.flatten()\nreturn x"),
    "one-branch-other-returns": module("if x.dim() > 1:\n    y = x.flatten()\nelse:\n    return x\nreturn y"),
    "one-branch-other-raises": module(
        "if x.dim() > 1:\n    y = x.flatten()\nelse:\n    raise ValueError('no')\nreturn y"),
    "one-branch-other-asserts-false": module(
        "if x.dim() > 1:\n    y = x.flatten()\nelse:\n    assert False, 'no'\nreturn y"),
    "one-branch-other-is-scripting-raise": module(
        "if x.dim() > 1:\n    if torch.jit.is_scripting():\n        raise RuntimeError('eager only')\n    y = x * 2\n"
        "else:\n    y = x.flatten()\nreturn y"),
    "both-branches-define-after-isinstance-fold": module(
        "if isinstance(x, torch.Tensor):\n    xs = [x]\nelse:\n    xs = x\nreturn xs[0]"),
    "loop-var-defined-before": module("i = 0\nfor i in range(3):\n    x = x + i\nreturn x * i"),
    "loop-var-only-inside": module("for i in range(3):\n    y = x * i\n    x = x + y\nreturn x"),
    "comprehension-reuses-a-loop-name": module(
        "for t in xs:\n    x = x + t\nys = [t * 2 for t in xs]\nreturn x + ys[0]",
        signature="self, x, xs: List[torch.Tensor]"),
    "tuple-target-rebinds-in-two-branches": module(
        "if x.dim() > 1:\n    a, _ = x.chunk(2)\nelse:\n    a = x\nb, _ = x.chunk(2)\nreturn a + b"),
    "annotated-none-then-loop": module(
        "acc: Optional[torch.Tensor] = None\nfor t in xs:\n    acc = t if acc is None else acc + t\nreturn acc",
        signature="self, xs: List[torch.Tensor]"),
    "none-attribute-guard-folds": module(
        "bias = None\nif self.bias is not None:\n    bias = self.bias * 2\nreturn x if bias is None else x + bias",
        init="self.bias = nn.Parameter(torch.zeros(4))\n"),
    "int-accepts-tensor-in-loop": module("y = 0\nfor t in xs:\n    y = t\nreturn y", signature="self, xs: List[torch.Tensor]"),
    "int-accepts-bool-in-branch": module("s = 1\nif x.dim() > 1:\n    s = True\nreturn x * s"),
    "float-accepts-tensor-in-loop": module("s = 0.5\nfor _ in range(2):\n    s = x\nreturn x"),
    "int-plus-tensor-in-loop": module("s = 0\nfor t in xs:\n    s = s + t\nreturn s", signature="self, xs: List[torch.Tensor]"),
    "ternary-with-none": module("y = x if x.dim() > 1 else None\nreturn y"),
    "ternary-same-types": module("y = 1 if x.dim() > 1 else 2\nreturn x * y"),
    "item-arithmetic-and-index": module("k = x.sum().item() * 2\nreturn ys[x.argmax().item()] * k",
                                        signature="self, x, ys: List[torch.Tensor]"),
    "item-wrapped-in-int": module("for _ in range(int(x.sum().item())):\n    x = x + 1\nreturn x"),
    "tolist-annotated": module("values: List[float] = x.tolist()\nreturn len(values)"),
    "tolist-returned-with-annotation": module("return x.tolist()", signature="self, x") .replace(
        "def forward(self, x):", "def forward(self, x) -> List[float]:"),
    "dict-bool-and-str-keys": module("a: Dict[bool, torch.Tensor] = {}\nb: Dict[str, int] = {}\nreturn x"),
    "return-none-unannotated-unifies": module("if x.sum() > 0:\n    return x\nreturn None"),
    "return-optional-annotated": module("if x.sum() > 0:\n    return x\nreturn None").replace(
        "def forward(self, x):", "def forward(self, x) -> Optional[torch.Tensor]:"),
    "tuples-of-one-length": module("if x.dim() > 1:\n    return x, x\nreturn x, x.clone()"),
    "optional-refined-by-is-not-none": module(
        "if mask is not None:\n    x = x.masked_fill(mask, 0.0)\nreturn x",
        signature="self, x, mask: Optional[torch.Tensor] = None"),
    "optional-refined-by-assert": module(
        "assert mask is not None\nreturn x + mask.sum()", signature="self, x, mask: Optional[torch.Tensor] = None"),
    "optional-refined-in-else-of-is-none": module(
        "if mask is None:\n    y = x\nelse:\n    y = x * mask\nreturn y", signature="self, x, mask: Optional[torch.Tensor] = None"),
    "optional-refined-by-raise": module(
        "if mask is None:\n    raise ValueError('mask')\nreturn x * mask.float()",
        signature="self, x, mask: Optional[torch.Tensor] = None"),
    "optional-checked-with-and": module(
        "if mask is not None and mask.dim() > 1:\n    x = x * mask\nreturn x",
        signature="self, x, mask: Optional[torch.Tensor] = None"),
    "optional-refined-in-an-if-expression": module(
        "return x if mask is None else x + mask", signature="self, x, mask: Optional[torch.Tensor] = None"),
    "none-then-assigned-under-a-folded-attribute-test": module(
        "bias = None\nif self.table is not None:\n    bias = self.table * 2\nelif shared is not None:\n    bias = shared\n"
        "return x if bias is None else x + bias",
        init="self.table = nn.Parameter(torch.zeros(4))\n", signature="self, x, shared: Optional[torch.Tensor] = None"),
    "optional-refined-by-early-return": module(
        "if mask is None:\n    return x\nreturn x * mask", signature="self, x, mask: Optional[torch.Tensor] = None"),
    "optional-replaced-when-none": module(
        "if mask is None:\n    mask = torch.ones_like(x)\nreturn x * mask",
        signature="self, x, mask: Optional[torch.Tensor] = None"),
    "optional-passed-to-functional": module(
        "return F.linear(x, w, b)", signature="self, x, w, b: Optional[torch.Tensor] = None"),
    "unannotated-none-default-in-forward": module("return x * mask", signature="self, x, mask=None"),
    "tensor-to-unannotated-helper-param": module(
        "return scale(x, x.sum())", header="def scale(x, s):\n    return x * s\n\n\n"),
    "unannotated-param-compared-with-number": module("return x if n > 0 else x * 2", signature="self, x, n"),
    "annotated-str-param-compared": module("return x if mode == 'a' else x * 2", signature="self, x, mode: str"),
    "cat-of-annotated-list": module("return torch.cat(xs, dim=0)", signature="self, xs: List[torch.Tensor]"),
    "empty-list-filled-with-tensors": module("l = []\nl.append(x * 2)\nreturn l[0]"),
    "empty-dict-filled-with-tensors": module("d = {}\nd['a'] = x\nreturn d['a']"),
    "annotated-empty-list-of-ints": module("l: List[int] = []\nl.append(x.size(0))\nreturn x * len(l)"),
    "empty-list-rebound-before-append": module("l = []\nl = [1]\nl.append(2)\nreturn x * len(l)"),
    "attribute-int-updated-as-int": module("self.steps = self.steps + 1\nreturn x", init="self.steps = 0\n"),
    "attribute-none-assigned-none-again": module("self.cache = None\nreturn x", init="self.cache = None\n"),
    "attribute-annotated-optional-assigned": module(
        "self.cache = x\nreturn x", init="self.cache = None\n").replace(
        "class M(nn.Module):\n", "class M(nn.Module):\n    cache: Optional[torch.Tensor]\n\n"),
    "attribute-of-two-types-in-init": module(
        "self.scale = x.sum()\nreturn x", init="self.scale = 1.0\nif True:\n    self.scale = torch.ones(1)\n"),
    "optional-attribute-passed-to-functional": module(
        "return F.linear(x, self.w, self.bias)",
        init="self.bias = torch.zeros(4)\nself.w = nn.Parameter(torch.zeros(4, 4))\n").replace(
        "class M(nn.Module):\n", "class M(nn.Module):\n    bias: Optional[torch.Tensor]\n\n"),
    "optional-attribute-copied-to-a-local": module(
        "bias = self.bias\nif bias is not None:\n    x = x + bias\nreturn x", init="self.bias = torch.zeros(4)\n").replace(
        "class M(nn.Module):\n", "class M(nn.Module):\n    bias: Optional[torch.Tensor]\n\n"),
    "attribute-tensor-guarded-without-annotation": module(
        "if self.bias is not None:\n    x = x + self.bias\nreturn x", init="self.bias = nn.Parameter(torch.zeros(4))\n"),
}


@pytest.mark.parametrize("name", CASES)
def test_jitlint_is_silent(name, lint_source):
    findings = lint_source(CASES[name])
    assert [(f.code, f.location.row, f.message) for f in findings] == []


@pytest.mark.torch
@pytest.mark.parametrize("name", CASES)
def test_torch_scripts_it(name, tmp_path):
    result = script_source(CASES[name], tmp_path)
    assert result.ok, f"{name}: torch 2.13 rejects it: {result.message} (line {result.line})"

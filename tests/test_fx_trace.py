"""FX2xx on small models: each case is linted (the marked lines, `# error: CODE`, and nothing else) and, with the
torch marker, traced with `symbolic_trace` (`tests/oracles/fx.py`): a case with an error mark must fail at a
marked line, a case without one must trace. The look-alikes that trace fine are here so that flagging them fails."""

import re
import textwrap

import pytest

from conftest import codes_for, lint_files
from oracles.fx import trace_sources

FX = codes_for("fx")
H = "import math\nimport torch\nimport torch.nn as nn\n\n\n"


def model(body: str, signature: str = "self, x", init: str = "", extra: str = "") -> str:
    init_block = ""
    if init:
        init_block = "    def __init__(self):\n        super().__init__()\n" + textwrap.indent(textwrap.dedent(init).strip(), " " * 8) + "\n\n"
    return (H + textwrap.dedent(extra).strip() + ("\n\n\n" if extra.strip() else "") + "class M(nn.Module):\n" + init_block
            + f"    def forward({signature}):\n" + textwrap.indent(textwrap.dedent(body).strip(), " " * 8) + "\n")


GATE = """class Gate(nn.Module):
    def forward(self, x):
        if x.mean() > 0:{mark}
            return x
        return -x"""

BLOCK = """class Block(nn.Module):
    def __init__(self, channels=4, context_channels={default}):
        super().__init__()
        {guard_line}
        if {guard}:
            self.context_layer = nn.Linear(4, channels)
        self.linear = nn.Linear(channels, channels)

    def forward(self, inputs, context=None):
        out = self.linear(inputs)
        if {read_guard}:{note}
            out = out + self.context_layer(context){mark}
        return out
"""


def block(default="None", guard="context_channels is not None", read_guard="context is not None", mark="",
          guard_line="self.use_context = context_channels is not None") -> str:
    note = "  # error: FX221" if read_guard == "context is not None" else ""  # the placeholder's None-check
    return H + BLOCK.format(default=default, guard=guard, read_guard=read_guard, mark=mark, guard_line=guard_line,
                            note=note)

PART = """class Part(nn.Module):
    def __init__(self, mode="loss"):
        super().__init__()
        self.mode = mode
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        return self.proj(x)"""

LAYERS = """def exists(value):
    return value is not None


class Layers(nn.Module):
    def __init__(self, dim=4, cross_attend=False, causal=False):
        super().__init__()
        self.cross_attend = cross_attend
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, context=None):
{body}


class CrossAttender(Layers):
    def __init__(self, **kwargs):
        super().__init__(cross_attend=True, **kwargs)


class Encoder(Layers):
    def __init__(self, **kwargs):
        super().__init__(causal=False, **kwargs)
"""

HELPER_EXISTS = "def exists(value):\n    return value is not None\n"

AUTOGRAD = """class Halve(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        {body}

    @staticmethod
    def backward(ctx, grad):
        return grad, None"""


HELPER_FILT = """
        def prep(h, device=None):
            return torch.tensor(h, dtype=torch.float, device=device).reshape(1, -1)


        def filt(x, filters):
            convert = [not isinstance(f, torch.Tensor) for f in filters]
            if True in convert:
                h0, h1 = [prep(f, device=x.device) for f in filters]
            else:
                h0, h1 = filters
            if h0.shape != (1, 2):{mark}
                h0 = h0.reshape(1, 2)
            return x * h0.sum() + x * h1.sum()
        """

# Patterns that trace (a rule must not flag them) and their look-alikes.
TRACES = {
    # a flag given as `not` of the builder's own parameter follows that parameter's default (here False)
    "flag-given-as-not-of-a-parameter-traces": (
        H + "class Attn(nn.Module):\n    def __init__(self, use_rel=False):\n        super().__init__()\n"
        "        self.use_rel = use_rel\n\n    def forward(self, x):\n        if self.use_rel:\n"
        "            return x * len(x)\n        return x\n\n\n"
        "class Net(nn.Module):\n    def __init__(self, strict=True):\n        super().__init__()\n"
        "        self.block = Attn(use_rel=not strict)\n\n    def forward(self, x):\n        return self.block(x)\n"),
    # `map`/`filter` with module-level functions, and `filter` over plain numbers; a plain class built from a Proxy
    # whose `__init__` only records operations on it
    "map-filter-named-functions-trace": model(
        "q, k = map(double, (x, x + 1))\na = list(filter(positive, self.sizes))\n"
        "b = list(filter(None, self.sizes)) + list(filter(lambda n: n > 1, self.sizes))\n"
        "return (q + k * len(a) * len(b)) * Scaled(x).value", init="self.sizes = [1, 0, 3]",
        extra="def double(t):\n    return t * 2\n\n\ndef positive(n):\n    return n > 0\n\n\n"
              "class Scaled:\n    def __init__(self, value, factor=2):\n        self.value = value * factor"),
    # a Proxy keyword (`device=x.device`, `dtype=x.dtype`) dispatches `torch.tensor` to the Proxy before the list of
    # sizes is read: recorded, no `len`
    "tensor-of-list-with-size-device-of-input": model("h, w = x.shape[-2:]\n"
                                                      "n = torch.tensor([w, h], dtype=x.dtype, device=x.device)\n"
                                                      "return x * n.sum()"),
    # the same `map` whose lambda does only what a Proxy records, and one over plain numbers
    "map-lambda-traces": model("q, k = map(lambda t: t.reshape(t.size(0), -1), (x, x + 1))\n"
                               "a, b = map(lambda n: n * len(self.sizes), (1, 2))\nreturn q + k * a * b",
                               init="self.sizes = [1, 2]"),
    # a read in a branch of a conditional expression on the module's own flag, which the project sets both ways
    "attribute-read-in-an-undecided-ternary": (H + "class SE(nn.Module):\n"
        "    def __init__(self, channels=4, use_conv=True):\n        super().__init__()\n"
        "        self.use_conv = use_conv\n        if use_conv:\n            self.conv = nn.Conv1d(channels, channels, 1)\n"
        "        else:\n            self.fc = nn.Linear(channels, channels)\n\n"
        "    def forward(self, x):\n        return self.conv(x) if self.use_conv else self.fc(x)\n\n\n"
        "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.a = SE(use_conv=False)\n        self.b = SE()\n\n"
        "    def forward(self, x):\n        return self.b(self.a(x))\n"),
    # `Function.apply` runs the subclass's forward with the Proxies (after a `ctx`)
    "autograd-function-apply": model("return Halve.apply(x, 2)", extra=AUTOGRAD.format(body="return x[..., :k] * 2")),
    # an attribute read where the module's own flag guards it
    "attribute-read-under-own-flag": block(read_guard="self.use_context"),
    # `True in [...]` of a list whose every item is False is False, whatever its length
    "constant-list-membership": model("return filt(x, (self.h0, self.h1))", extra=HELPER_FILT.format(mark=""),
                                      init='self.register_buffer("h0", prep([0.5, 0.5]))\n'
                                           'self.register_buffer("h1", prep([0.5, -0.5]))'),
    # a helper's answer to `x is not None` on a Proxy: True, so asserting it holds traces
    "helper-none-check-holds": model('assert exists(context), "context"\nif not exists(mask):\n'
                                     '    raise ValueError("mask")\nreturn x * mask',
                                     signature="self, x, context=None, mask=None", extra=HELPER_EXISTS),
    # the loop variable read after the loop: the last module of the list, its string attribute decides
    "loop-variable-after-loop": model('for f in self.parts:\n    x = f(x)\nif f.mode == "full":\n    return x, x\n'
                                      'return x', init='self.parts = nn.ModuleList([Part(), Part()])',
                                      extra=PART),
    # a flag copied from the wrapped network (`self.checked = self.net.checked`), False wherever a module sets it
    "flag-copied-from-the-wrapped-network": (H + "class Net(nn.Module):\n"
        "    def __init__(self, checked=False):\n        super().__init__()\n        self.checked = checked\n"
        "        self.proj = nn.Linear(4, 4)\n\n    def forward(self, x):\n        return self.proj(x)\n\n\n"
        "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.net = Net()\n"
        "        self.checked = self.net.checked\n\n    def forward(self, x):\n        if self.checked:\n"
        "            if x.sum() > 0:\n                x = x * 2\n        return self.net(x)\n"),
    # a flag a subclass gives `super().__init__`: decided per class, each branch traces
    "flag-given-by-a-subclass-init": H + LAYERS.format(
        body="        if self.cross_attend:\n            return self.proj(x + context)\n        return self.proj(x)"),
    "tuple-unpack-shape": model("B, C = x.shape\nreturn x.view(B, C)"),
    "zeros-of-shape": model("return torch.zeros(x.shape)"),
    "zeros-of-size-tuple": model("return torch.zeros((x.size(0), 3))"),
    "zeros-concrete-first": model("return torch.zeros(3, x.size(0))"),
    "ones-single-size": model("return torch.ones(x.size(0))"),
    "full-tuple": model("return torch.full((x.size(0), 3), 1.0)"),
    "arange": model("return torch.arange(x.size(0))"),
    "new-zeros-varargs": model("return x.new_zeros(x.size(0), 3)"),
    "math-sqrt": model("return x / math.sqrt(x.size(-1))"),
    "star-args-signature": model("return torch.cat(xs)", signature="self, *xs"),
    "kwargs-signature": model("return x + 1", signature="self, x, **kwargs"),
    "torch-assert": model('torch._assert(x.shape[1] == 4, "four channels")\nreturn x'),
    "shape-concat": model("return x.reshape(x.shape[:1] + (-1,))"),
    "training-flag": model("if self.training and self.flag:\n    x = x * 2\nreturn x", init="self.flag = True"),
    # modules appended to a container __init__ creates empty: one added only in a branch is not known to be there
    # the same choice between two modules that trace
    "sequential-conditional-step-traces": model(
        "return self.net(x)",
        init="self.causal = False\nself.net = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4) if not "
             "self.causal else nn.Identity())"),
    "appended-in-a-branch": model("for layer in self.layers:\n    x = layer(x)\nreturn x",
                                  init="self.gated = False\nself.layers = nn.ModuleList()\n"
                                       "self.layers.append(nn.Linear(4, 4))\nif self.gated:\n"
                                       "    self.layers.append(Rearrange('b c -> c b'))",
                                  extra="from einops.layers.torch import Rearrange"),
    "appended-in-a-loop-trace": model("for layer in self.layers:\n    x = layer(x)\nreturn self.steps(x)",
                                      init="self.layers = nn.ModuleList()\nfor _ in range(3):\n"
                                           "    self.layers.append(nn.Linear(4, 4))\nself.steps = nn.Sequential()\n"
                                           "self.steps.append(nn.ReLU())\nself.steps.extend([nn.Linear(4, 4)])\n"
                                           "self.layers += [nn.Tanh()]"),
    "buffer-test": model("if self.buf.sum() > 0:\n    x = x * 2\nreturn x",
                         init='self.register_buffer("buf", torch.ones(3))'),
    "buffer-indexed": model("return x * self.buf[x.size(0)]", init='self.register_buffer("buf", torch.ones(9))'),
    "is-scripting-pruned": model("if torch.jit.is_scripting():\n    n = int(x.size(0))\n    return x * n\nreturn x"),
    "not-is-scripting-live-ok": model("if not torch.jit.is_scripting():\n    x = x * 2\nreturn x"),
    "tensor-of-constants": model("return x * torch.tensor([1.0, 2.0])"),
    "iinfo": model("return x.clamp(min=torch.iinfo(x.dtype).min)"),
    "abs-getattr": model('return x * abs(x.size(0)) * getattr(x, "ndim")'),
    "modulelist-loop": model("for i, layer in enumerate(self.layers):\n    x = layer(x)\nreturn x * len(self.layers)",
                             init="self.layers = nn.ModuleList([nn.Linear(4, 4), nn.Linear(4, 4)])"),
    "ternary-on-attribute": model("return x * (2 if self.training else 3)"),
    "fstring": model('key = f"{x.shape[0]}"\nreturn {key: x}'),
    "is-none-in-submodule": (H + "class Block(nn.Module):\n    def forward(self, x, mask=None, flag=False):\n"
                             "        if mask is not None:\n            x = x * mask\n        if flag is True:\n"
                             "            x = x + 1\n        return x\n\n\nclass M(nn.Module):\n"
                             "    def __init__(self):\n        super().__init__()\n        self.block = Block()\n\n"
                             "    def forward(self, x):\n        return self.block(x)\n"),
    "fx-wrap-decorator": model("return helper(x)", extra="""
        @torch.fx.wrap
        def helper(x):
            if x.sum() > 0:
                return x
            return -x
        """),
    "fx-wrap-call": model("return helper(x)", extra="""
        def helper(x):
            return x * len(x)


        torch.fx.wrap("helper")
        """),
    "helper-concrete-args": model("return x * helper(3, 4)", extra="""
        def helper(a, b):
            return max(a, b)
        """),
    "static-helper": (H + "class M(nn.Module):\n    @staticmethod\n    def scale(x):\n        return x * 2\n\n"
                      "    def forward(self, x):\n        return self.scale(x) + M.scale(x)\n"),
    "tuple-from-submodule": (H + "class Two(nn.Module):\n    def forward(self, x):\n        return x, x + 1\n\n\n"
                             "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                             "        self.two = Two()\n\n    def forward(self, x):\n        a, b = self.two(x)\n"
                             "        for t in self.two(x):\n            a = a + t\n        return a + b\n"),
}

# Patterns symbolic_trace rejects (the first marked line is where it stops) or silently mis-traces (warnings).
FAILS = {
    # after the first failure, a helper the forward calls next is judged by that call: the other caller, a method
    # no trace reaches (analysed with guessed arguments), is not a run where the helper's line works
    "helper-after-a-failure-also-called-from-an-unreached-method": (
        H + "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.refine = False\n\n"
        "    def helper(self, t):\n        return extract(t)\n\n"
        "    def forward(self, x):\n        n = len(x)  # error: FX202\n        if self.refine:\n"
        "            x = self.helper(x)\n        return extract(x) * n\n\n\n"
        "def extract(t):\n    b, *_ = t.shape  # error: FX203\n    return t * b\n"),
    # a flag given as a value read from data at the call (`rel_blocks[i]`) may be either: both branches are judged
    "flag-given-as-a-computed-value": (
        H + "class Attn(nn.Module):\n    def __init__(self, use_rel=False):\n        super().__init__()\n"
        "        self.use_rel = use_rel\n\n    def forward(self, x):\n        if self.use_rel:\n"
        "            return x * len(x)  # error: FX202\n        return x\n\n\n"
        "class Net(nn.Module):\n    def __init__(self, rel_blocks=(True, False)):\n        super().__init__()\n"
        "        self.blocks = nn.ModuleList([Attn(use_rel=rel_blocks[i]) for i in range(2)])\n\n"
        "    def forward(self, x):\n        for block in self.blocks:\n            x = block(x)\n        return x\n"),
    # `filter` makes each result of its function (each item, given None) a bool
    "filter-lambda-on-proxies": model("kept = tuple(filter(lambda t: t.requires_grad, (x, x + 1)))  # error: FX201\n"
                                      "return kept[0]"),
    "filter-none-on-proxies": model("kept = list(filter(None, (x, x + 1)))  # error: FX201\nreturn kept[0]"),
    # a module-level function given to `map`/`filter` is called with each item
    "map-named-function-on-proxies": model("q, k = map(split, (x, x + 1))\nreturn q + k",
                                           extra="def split(t):\n    return t.reshape(len(t), -1)  # error: FX202"),
    "filter-named-function-on-proxies": model("kept = list(filter(keep, (x, x + 1)))  # error: FX201\nreturn kept[0]",
                                              extra="def keep(t):\n    return t.requires_grad"),
    # building a plain project class runs its `__init__` with the Proxies it is given
    "plain-class-init-on-proxies": model("holder = Holder(phi=(x,))\nreturn x", extra=(
        "class Holder:\n    def __init__(self, phi=()):\n"
        "        self.phi = tuple(filter(lambda p: p.requires_grad, phi))  # error: FX201")),
    # CPython 3.11 iterates a comprehension's outermost iterable where it makes it: the line of its opening
    # bracket (the statement's for `q, k = (`, the call's for `sum(`), not the iterable's
    "generator-over-proxy-spanning-lines": model("qkv = x.chunk(2, dim=1)\nq, k = (  # error: FX203\n"
                                                 "    t * 2 for t in qkv\n)\nreturn q + k"),
    "list-comprehension-over-proxy-spanning-lines": model("qkv = x.chunk(2, dim=1)\nq, k = [  # error: FX203\n"
                                                          "    t * 2\n    for t in qkv\n]\nreturn q + k"),
    "call-generator-over-proxy-spanning-lines": model("qkv = x.chunk(2, dim=1)\ns = sum(  # error: FX203\n"
                                                      "    t * 2 for t in qkv\n)\nreturn s"),
    # `map` calls its function with each item: the lambda's `len` meets the Proxies the tuple holds
    "map-lambda-on-proxies": model("q, k = map(lambda t: t.reshape(len(t), -1), (x, x + 1))  # error: FX202\n"
                                   "return q + k"),
    "autograd-function-apply-branches": model("return Halve.apply(x, 2)", extra=AUTOGRAD.format(
        body="if x.shape[-1] > k:  # error: FX201\n            return x[..., :k]\n        return x")),
    # `__init__` sets it only for a non-default argument; `context is not None` is True on a placeholder
    "attribute-absent-with-defaults": block(mark="  # error: FX214"),
    # look-alikes that trace (only the placeholder's None-check is noted): `__init__` sets it for the defaults
    "attribute-set-by-default": block(default="4"),
    "attribute-set-when-none": block(guard="context_channels is None", guard_line="pass"),
    "attribute-absent-with-a-default-given": block(default="4", guard="not context_channels", guard_line="pass",
                                                   mark="  # error: FX214"),
    # the same test of plain lists: converted with a traced device, so the shape test is on a Proxy
    "constant-list-membership-lists": model("return filt(x, self.filters)",
                                            extra=HELPER_FILT.format(mark="  # error: FX201"),
                                            init="self.filters = ([0.5, 0.5], [0.5, -0.5])"),
    # the same helper's answer asserted false: a Proxy is never None, the library's own assertion fails
    "helper-none-check-fails": model('assert not exists(context), "no context"  # error: FX211\nreturn x',
                                     signature="self, x, context=None", extra=HELPER_EXISTS),
    # a name first bound in a loop's body, read after it: what the last round left, here a Proxy
    "loop-result-after-loop": model("for f in self.parts:\n    out = f(x)\nif out:  # error: FX201\n    return out\n"
                                    "return x", init="self.parts = nn.ModuleList([Part(), Part()])", extra=PART),
    # the flag a sibling subclass sets in its `super().__init__` call does not configure the others: the base
    # and Encoder are built with cross_attend False, and a placeholder Proxy is never None
    "flag-given-by-a-sibling-subclass-init": H + LAYERS.format(
        body="        assert not (self.cross_attend ^ exists(context)), 'context'  # error: FX211\n"
             "        return self.proj(x)"),
    "if-shape": model("if x.shape[0] > 1:  # error: FX201\n    x = x + 1\nreturn x"),
    "flag-parameter": model("if flip:  # error: FX201\n    x = x.flip(0)\nreturn x", signature="self, x, flip=False"),
    "assert-shape": model('assert x.shape[1] == 4, "four"  # error: FX201\nreturn x'),
    "torch-assert-or": model('torch._assert(x.ndim == 4 or x.ndim == 3, "rank")  # error: FX201\nreturn x'),
    "while-norm": model("while x.norm() > 1:  # error: FX201\n    x = x / 2\nreturn x"),
    "ternary-on-size": model("return x[:, :2] if x.size(1) > 2 else x  # error: FX201"),
    "is-scripting-and-device": model("if not torch.jit.is_scripting() and x.device.type != 'meta':  # error: FX201\n"
                                     "    x = x + 1\nreturn x"),
    "parameter-tensor-test": model("if self.w.sum() > 0:  # error: FX201\n    x = x * 2\nreturn x",
                                   init="self.w = nn.Parameter(torch.ones(3))"),
    "dtype-compare": model("if x.dtype == torch.float16:  # error: FX201\n    x = x.float()\nreturn x"),
    "static-forward": (H + "class M(nn.Module):\n    @staticmethod\n    def forward(x, y):\n        z = y + 1\n"
                       "        return torch.relu(x) + z  # error: FX213\n"),
    "max-of-size": model("n = max(x.size(0), 1)  # error: FX202\nreturn x * n"),
    "len": model("return x * len(x)  # error: FX202"),
    "float": model("return x * float(x.size(1))  # error: FX202"),
    "range": model("ys = [x for i in range(x.size(0))]  # error: FX202\nreturn ys[0]"),
    "tensor-of-list-with-size": model("return x * torch.tensor([x.size(0)], dtype=torch.float32)  # error: FX202"),
    "int-math": model("return x * int(math.sqrt(x.size(-1)))  # error: FX202"),
    "for-over-tensor": model("for row in x:  # error: FX203\n    pass\nreturn x"),
    "star-rest": model("b, *rest = x.shape  # error: FX203\nreturn x * b"),
    "shape-comprehension": model("return [s // 2 for s in x.shape[1:]]  # error: FX203"),
    "star-in-list": model("return torch.stack([*x])  # error: FX203"),
    "star-args-loop": model("for t in xs:  # error: FX203\n    pass\nreturn xs", signature="self, *xs"),
    "tuple-of-shape": model("return x.reshape(tuple(x.shape))  # error: FX203"),
    "list-sliced": model("return x * sum(self.scales[: x.size(0)])  # error: FX204", init="self.scales = [1.0, 2.0]"),
    "buffer-sliced": model("return x * self.buf[: x.size(0)]  # error: FX204",
                           init='self.register_buffer("buf", torch.ones(9))'),
    "modulelist-indexed": model("return self.heads[x.size(0) - 2](x)  # error: FX204",
                                init="self.heads = nn.ModuleList([nn.Linear(4, 4), nn.Linear(4, 4)])"),
    "item-assignment": model("x[0] = 1  # error: FX205\nreturn x"),
    "ones-varargs": model("return torch.ones(x.size(0), 3)  # error: FX206"),
    "randn-varargs": model("return torch.randn(x.size(0), 3)  # error: FX206"),
    "finfo": model("return x.clamp(min=torch.finfo(x.dtype).min)  # error: FX207"),
    "module-in-forward-local": model("pool = nn.MaxPool1d(2)\nreturn pool(x)  # error: FX208"),
    "numpy-asarray": model("return x * np.asarray(x).sum()  # error: FX210", extra="import numpy as np"),
    "from-numpy-eager-branch": model("if not torch.jit.is_scripting():\n"
                                     "    x = torch.from_numpy(x.numpy() * 2)  # error: FX210\nreturn x"),
    "list-filled-then-read": model("feats = []\nfeats.append(x)\nif feats[0].shape[0] > 1:  # error: FX201\n"
                                   "    x = x + 1\nreturn x"),
    "list-input-of-a-built-model": model("for img in images:  # error: FX203\n    pass\nreturn images",
                                         signature="self, images: List[torch.Tensor]",
                                         extra="from typing import List\n\n\ndef build():\n    return M()"),
    "helper-branches": model("return helper(x)", extra="""
        def helper(x):
            if x.shape[-1] % 2:  # error: FX201
                return x[..., :-1]
            return x
        """),
    "padding-taint-through-int-params": model("return x + pad_amount(x.size(-1), 3, 2)", extra="""
        def pad_amount(size, k, s):
            return max((math.ceil(size / s) - 1) * s + k - size, 0)  # error: FX202
        """),
    "sequential-of-project-module": (H + "class Branchy(nn.Module):\n    def forward(self, x):\n"
                                     "        if x.sum() > 0:  # error: FX201\n            return x\n"
                                     "        return -x\n\n\nclass M(nn.Module):\n    def __init__(self):\n"
                                     "        super().__init__()\n        self.body = nn.Sequential(nn.ReLU(), Branchy())\n\n"
                                     "    def forward(self, x):\n        return self.body(x)\n"),
    "appended-to-an-empty-modulelist": model(
        "for layer in self.layers:\n    x = layer(x)\nreturn x",
        init="self.layers = nn.ModuleList()\nself.layers.append(nn.Linear(4, 4))\nself.layers.append(Gate())",
        extra=GATE.format(mark="  # error: FX201")),
    # a step chosen by a constructor flag: either module may be there, the library's one fails
    "sequential-conditional-step": model(
        "return self.net(x)  # error: FX211",
        init="self.causal = False\nself.net = nn.Sequential(nn.Linear(4, 4), Rearrange('b c -> c b') if not "
             "self.causal else nn.Identity())",
        extra="from einops.layers.torch import Rearrange"),
    "appended-library-module": model(
        "for layer in self.layers:\n    x = layer(x)  # error: FX211\nreturn x",
        init="self.layers = nn.ModuleList()\nself.layers.append(nn.Linear(4, 4))\n"
             "self.layers.append(Rearrange('b c -> c b'))",
        extra="from einops.layers.torch import Rearrange"),
    "modulelist-of-a-generator": model(
        "for layer in self.layers:\n    x = layer(x)  # error: FX211\nreturn x",
        init="self.layers = nn.ModuleList(Rearrange('b c -> c b') for _ in range(2))",
        extra="from einops.layers.torch import Rearrange"),
    "appended-in-a-loop-zipped": model(
        "for conv, norm in zip(self.convs, self.norms):\n    x = norm(conv(x))\nreturn x",
        init="self.convs = nn.ModuleList()\nself.norms = nn.ModuleList()\nfor _ in range(2):\n"
             "    self.convs.append(Gate())\n    self.norms.append(nn.Identity())",
        extra=GATE.format(mark="  # error: FX201")),
    "tensor-of-literals-with-traced-dtype": model("a = torch.tensor([1.0, 0.0], dtype=x.dtype, device=x.device)\n"
                                                  "if a.sum() > 0:  # error: FX201\n    x = x + 1\nreturn x"),
    # a test over several lines: Python 3.11 names the statement's line, or the comparison's when one made the bool
    "multiline-if-attribute": model("if (  # error: FX201\n    x.requires_grad\n    or x.is_cuda\n):\n    x = x * 2\nreturn x"),
    "multiline-if-compare": model("if (\n    x.sum() > 0  # error: FX201\n    or x.mean() < 0  # error: FX201\n):\n    x = x * 2\nreturn x"),
    "multiline-while-not": model("while (  # error: FX201\n    not x.sum()\n):\n    x = x + 1\nreturn x"),
    "multiline-ternary": model("return (x  # error: FX201\n        if\n        x.sum()\n        else -x)"),
    "multiline-comprehension-if": model("return [i for i in range(3)  # error: FX201\n        if\n        x.sum()]"),
    # silent mis-traces: they trace
    "isinstance-list": model("if isinstance(x, (list, tuple)):  # error: FX220\n    x = torch.cat(x, 1)\nreturn x"),
    "mask-none": model("if mask is not None:  # error: FX221\n    x = x * mask\nreturn x", signature="self, x, mask=None"),
    "random-draw": model("if self.training and random.random() < 0.5:  # error: FX224\n    x = x * 2\nreturn x",
                         extra="import random"),
}


def marks(source: str) -> list[tuple[str, int]]:
    return sorted((code, row) for row, line in enumerate(source.splitlines(), 1) if "# error:" in line
                  for code in re.findall(r"\bFX\d{3}\b", line.split("# error:", 1)[1]))


def alone_rows(source: str) -> set[int]:
    """The marked rows whose failure only a trace of their class on its own meets (`# error: FX201 (alone)`)."""
    return {row for row, line in enumerate(source.splitlines(), 1) if "# error:" in line and "(alone)" in line}


def lint_one(source: str, tmp_path):
    findings = lint_files({"model.py": source}, tmp_path, codes=FX)
    return sorted((f.code, f.location.row) for f in findings)


@pytest.mark.parametrize("name", sorted(TRACES))
def test_look_alikes_are_silent(name, tmp_path):
    assert lint_one(TRACES[name], tmp_path) == []


@pytest.mark.parametrize("name", sorted(FAILS))
def test_failures_are_flagged_at_the_marked_lines(name, tmp_path):
    assert lint_one(FAILS[name], tmp_path) == marks(FAILS[name])


@pytest.fixture(scope="module")
def traced(tmp_path_factory):
    sources = {f"t_{name.replace('-', '_')}": source for name, source in TRACES.items()}
    sources.update({f"f_{name.replace('-', '_')}": source for name, source in FAILS.items()})
    return trace_sources(sources, tmp_path_factory.mktemp("fx_cases"))


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(TRACES))
def test_torch_traces_the_look_alikes(name, traced):
    result = traced[f"t_{name.replace('-', '_')}"]
    assert result.ok, f"{name}: {result}"


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(FAILS))
def test_torch_agrees_with_the_failures(name, traced):
    result = traced[f"f_{name.replace('-', '_')}"]
    errors = [row for code, row in marks(FAILS[name]) if code < "FX220"]
    if not errors:
        assert result.ok, f"{name}: a silent mis-trace must trace, but it {result}"
        return
    assert result.rejected, f"{name}: symbolic_trace must reject it, but it {result}"
    assert result.line == errors[0], f"{name}: torch stops at line {result.line}: {result}"


def test_taint_crosses_files(tmp_path):
    files = {
        "pkg/__init__.py": "",
        "pkg/layers.py": "import torch\n\n\ndef pad(x, size):\n    if size % 2:  # error: FX201\n"
                         "        return x\n    return x * 2\n",
        "pkg/model.py": "import torch.nn as nn\n\nfrom pkg.layers import pad\n\n\nclass M(nn.Module):\n"
                        "    def forward(self, x):\n        return pad(x, x.size(-1))\n",
    }
    findings = lint_files(files, tmp_path, codes=FX)
    assert [(f.filename.rsplit("/", 1)[-1], f.code, f.location.row) for f in findings] == [("layers.py", "FX201", 5)]


HALTS_HELPER = """import warnings

import torch
import torch.nn as nn


def vocoder(x, rate):
    if rate == 1.0:
        return x
    return x * rate
"""
HALTS_STRETCH = """

class Stretch(nn.Module):
    def forward(self, x, rate=None):
        if not torch.is_complex(x):  # error: FX201
            warnings.warn("expects a complex tensor")
        return vocoder(x, rate)
"""
HALTS_SHIFT = """

class Shift(nn.Module):
    def forward(self, x):
        return vocoder(x, 2.0 ** (-3.0 / 12))
"""


def test_a_function_reached_only_after_a_failure_is_judged_by_the_runs_that_reach_it(tmp_path):
    """symbolic_trace stops at the first failure: `vocoder(x, rate)` after a test that always raises never runs,
    so the helper, which another module calls with a float (and traces), is not claimed to fail on `rate == 1.0`
    (verified on torch 2.13 below: each class traced alone). Without the other caller, the helper would be judged
    by the call after the failure (what the user meets once that failure is fixed)."""
    source = HALTS_HELPER + HALTS_STRETCH + HALTS_SHIFT
    findings = lint_files({"halts.py": source}, tmp_path / "lint", codes=FX)
    assert [(f.code, f.location.row) for f in findings] == marks(source)
    alone = HALTS_HELPER + HALTS_STRETCH
    findings = lint_files({"alone.py": alone}, tmp_path / "alone", codes=FX)
    assert [(f.code, f.location.row) for f in findings] == [("FX201", 8), *marks(alone)]
    (tmp_path / "torch").mkdir()
    stretch_last = HALTS_HELPER + HALTS_SHIFT + HALTS_STRETCH
    traced = trace_sources({"shift": source, "stretch": stretch_last}, tmp_path / "torch")
    assert traced["shift"].ok, traced["shift"]
    assert traced["stretch"].rejected and traced["stretch"].line == marks(stretch_last)[0][1], traced["stretch"]


def test_fx_wrap_patches_only_the_registering_module(tmp_path):
    """torch.fx.wrap replaces the name in the globals of the module that calls it: `from layers import helper`
    elsewhere keeps the original function, whose body is then traced (verified on torch 2.13: the first class fails
    at the `if`, the other two trace)."""
    files = {
        "pk/__init__.py": "",
        "pk/layers.py": "import torch\n\n\n@torch.fx.wrap\ndef helper(x):\n    if x.sum() > 0:\n        return x\n"
                        "    return -x\n\n\ndef same_module_caller(x):\n    return helper(x)\n",
        "pk/model.py": "import torch.nn as nn\n\nimport pk.layers\nfrom pk.layers import helper, same_module_caller\n\n\n"
                       "class ViaImport(nn.Module):\n    def forward(self, x):\n        return helper(x)\n\n\n"
                       "class ViaModule(nn.Module):\n    def forward(self, x):\n        return pk.layers.helper(x)\n\n\n"
                       "class ViaSameModule(nn.Module):\n    def forward(self, x):\n        return same_module_caller(x)\n",
    }
    findings = lint_files(files, tmp_path, codes=FX)
    assert [(f.filename.rsplit("/", 1)[-1], f.code, f.location.row) for f in findings] == [("layers.py", "FX201", 6)]


ROOTS_SCALE = """import torch
import torch.nn as nn


class Scale(nn.Module):
    def forward(self, x, flag=False):
        if flag:  # error: FX201
            return x
        return x * 2
"""
ROOTS_SCRIPTABLE = """

class ScaleForScript(nn.Module):
    v1_cls = Scale

    def __prepare_scriptable__(self):
        return self.v1_cls()

    def forward(self, x):
        return x * 2
"""
ROOTS_PART = """

class Part(nn.Module):
    def forward(self, x, flag=False):
        if flag:  # error: FX201
            return x
        return x * 3
"""
ROOTS_HOLDER = """

class Holder(nn.Module):
    part_cls = Part

    def __init__(self):
        super().__init__()
        self.part = self.build()

    def build(self):
        return self.part_cls()

    def forward(self, x):
        return self.part(x)
"""


def test_a_class_named_only_where_nothing_is_built_or_traced_stays_a_root(tmp_path):
    """`symbolic_trace` takes any module: a class is traced as a part of another only when an instance of it ends
    up in a module being built or traced. `ScaleForScript.__prepare_scriptable__` builds a `Scale` for
    `torch.jit.script`, so `Scale` stays a class users trace (its `flag` a placeholder: torch fails at the `if`);
    `Holder.__init__` builds a `Part` through a class attribute and a method, so `Part` is a submodule called with
    `flag` at its default (torch traces `Holder`): its `if flag` fails only when `Part` is traced on its own, which
    the finding says. Verified on torch 2.13 below."""
    source = ROOTS_SCALE + ROOTS_SCRIPTABLE + ROOTS_PART + ROOTS_HOLDER
    findings = lint_files({"model.py": source}, tmp_path / "lint", codes=FX)
    assert sorted((f.code, f.location.row) for f in findings) == marks(source)
    alone = {f.location.row: _alone_note(f.message) for f in findings}
    assert alone == {marks(source)[0][1]: None, marks(source)[1][1]: "Part"}
    (tmp_path / "torch").mkdir()
    traced = trace_sources({"holder": source, "scale": ROOTS_SCALE, "scriptable": ROOTS_SCALE + ROOTS_SCRIPTABLE,
                            "part": ROOTS_SCALE + ROOTS_PART}, tmp_path / "torch")
    part_row = marks(ROOTS_SCALE + ROOTS_PART)[1][1]
    assert traced["holder"].ok, traced["holder"]
    assert traced["scriptable"].ok, traced["scriptable"]
    assert traced["scale"].rejected and traced["scale"].line == marks(ROOTS_SCALE)[0][1], traced["scale"]
    assert traced["part"].rejected and traced["part"].line == part_row, traced["part"]


def test_parts_alone_false_judges_a_part_only_as_its_parents_call_it(tmp_path):
    """`[tool.jitlint.fx] parts-alone = false`: the part's failure met only when it is traced on its own is not
    reported; the root's own failure still is."""
    from jitlint.config import Config
    from jitlint.targets.fx.settings import FxSettings

    source = ROOTS_SCALE + ROOTS_SCRIPTABLE + ROOTS_PART + ROOTS_HOLDER
    config = Config(root=tmp_path, target_settings={"fx": FxSettings.from_table({"parts-alone": False})})
    findings = lint_files({"model.py": source}, tmp_path, codes=FX, config=config)
    assert sorted((f.code, f.location.row) for f in findings) == [marks(source)[0]]
    assert all(_alone_note(f.message) is None for f in findings)


def _alone_note(message: str) -> str | None:
    found = re.search(r"when `(\w+)` is traced on its own", message)
    return found.group(1) if found else None


# A part of a model, built as `self.<name> = Cls()` and called there with its flags at their defaults. Traced on its
# own, every parameter of its forward is a placeholder Proxy (`Tracer.create_args_for_root`), defaulted ones too:
# what a flag decides fails then, what tests it against None does not (a Proxy is not None).
ALONE_PART = H + """class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.key = "k"

    def forward(self, x, mask=None, kv_cache=None, is_causal=False, bandwidth=None, scale=2.0):
        if mask is not None:
            x = x * mask
        if x.sum() > 0:  # error: FX201
            x = -x
        if kv_cache is None or self.key not in kv_cache:  # error: FX203
            x = x + 1
        assert not is_causal  # error: FX201
        if bandwidth:  # error: FX201
            x = x[:, :bandwidth]
        return x * scale
"""
ALONE_MODEL = """

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.attention = Attention()

    def forward(self, x):
        return self.attention(x)
"""


def test_a_part_traced_on_its_own_fails_where_its_flags_decide(tmp_path):
    """`Attention` is a part of `Model`, which calls it with its flags at their defaults: traced as part of it, only
    the test on the input fails (reported once, without a note); traced on its own, the flags are Proxies:
    `kv_cache is None` is False, so `not in` runs and iterates it, and `assert not is_causal` and `if bandwidth`
    make Proxies bools, while `mask is not None` and `* scale` trace. Checked on torch 2.13: the class alone fails at
    each marked line once the earlier ones are made constant; `Model` traces once the first one is."""
    source = ALONE_PART + ALONE_MODEL
    findings = lint_files({"model.py": source}, tmp_path / "lint", codes=FX)
    assert sorted((f.code, f.location.row) for f in findings) == marks(source)
    notes = {f.location.row: _alone_note(f.message) for f in findings}
    rows = [row for _, row in marks(source)]
    assert notes == {rows[0]: None, rows[1]: "Attention", rows[2]: "Attention", rows[3]: "Attention"}
    part_rows = [row for _, row in marks(ALONE_PART)]
    sources = {f"part_{row}": _made_constant(ALONE_PART, [r for r in part_rows if r < row]) for row in part_rows}
    sources["model"] = _made_constant(source, rows[:1])
    (tmp_path / "torch").mkdir()
    traced = trace_sources(sources, tmp_path / "torch")
    assert traced["model"].ok, traced["model"]
    for row in part_rows:
        assert traced[f"part_{row}"].rejected and traced[f"part_{row}"].line == row, (row, traced[f"part_{row}"])


def test_submodule_parameters_follow_their_annotations(tmp_path):
    """A forward whose callers are not resolved (here: in a loop over a ModuleList built from a local list) gets a
    Proxy for a tensor parameter, a sequence for `List[...]`, and nothing claimed for an alias it cannot read
    (timm's hrnet and twins). Each class traced on its own has every parameter a Proxy: what fails only then is
    reported with a note (marked "alone")."""
    source = H + textwrap.dedent("""
        from typing import List, Tuple

        Size_ = Tuple[int, int]


        class Fuse(nn.Module):
            def forward(self, x: List[torch.Tensor]):
                for i in range(len(x)):  # error: FX202 (alone)
                    x[i] = x[i] * 2  # error: FX205 (alone)
                if x[0].shape[0] > 1:  # error: FX201
                    pass
                return x


        class Reshape(nn.Module):
            def forward(self, x, size: Size_):
                return x.view(x.shape[0], -1, *size)  # error: FX203 (alone)


        class Plain(nn.Module):
            def forward(self, x):
                for row in x:  # error: FX203
                    pass
                return x


        class M(nn.Module):
            def __init__(self):
                super().__init__()
                blocks = [Fuse(), Reshape(), Plain()]
                self.blocks = nn.ModuleList(blocks)

            def forward(self, x):
                for block in self.blocks:
                    x = block(x)
                return x
        """)
    findings = lint_files({"model.py": source}, tmp_path, codes=FX)
    assert sorted((f.code, f.location.row) for f in findings) == marks(source)
    assert {f.location.row for f in findings if _alone_note(f.message)} == alone_rows(source)


def test_the_modules_a_container_holds_get_what_it_is_called_with(tmp_path):
    """A loop over `nn.ModuleList([Fuse(), Plain()])` calls each with the traced input, whatever their annotations
    say: torch 2.13 fails at `len(x)` in Fuse (the input is a Proxy, not a list)."""
    source = H + textwrap.dedent("""
        from typing import List


        class Fuse(nn.Module):
            def forward(self, x: List[torch.Tensor]):
                for i in range(len(x)):  # error: FX202
                    x[i] = x[i] * 2  # error: FX205
                return x


        class Plain(nn.Module):
            def forward(self, x):
                for row in x:  # error: FX203
                    pass
                return x


        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.blocks = nn.ModuleList([Fuse(), Plain()])

            def forward(self, x):
                for block in self.blocks:
                    x = block(x)
                return x
        """)
    assert lint_one(source, tmp_path) == marks(source)
    result = trace_sources({"container_calls": source}, tmp_path)["container_calls"]
    assert result.rejected and result.line == marks(source)[0][1], result


WRAPPED_FLAG = H + """class Core(nn.Module):
    def __init__(self, checked=False):
        super().__init__()
        self.checked = checked

    def forward(self, x):
        if self.checked:
            assert x.sum() > 0, "positive"
        return x


class Holder(nn.Module):
    def __init__(self, {holder_params}):
        super().__init__()
        self.core = Core({core_args})

    def forward(self, x):
        return self.core(x)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.holder = Holder(checked=True)

    def forward(self, x):
        return self.holder(x)
"""


def test_a_flag_given_to_another_class_configures_only_what_that_class_passes_it_on_to(tmp_path):
    # `Holder(checked=True)` builds a Holder; through its `**kwargs` the flag reaches Core, whose branch is then
    # judged (torch: `Model()` fails at the assert); a Holder whose own `checked` parameter stays with it does not
    # configure Core, which every build leaves unchecked (torch traces Core(), Holder() and Model() alike)
    forwarded = lint_one(WRAPPED_FLAG.format(holder_params="**kwargs", core_args="**kwargs"), tmp_path)
    kept = lint_one(WRAPPED_FLAG.format(holder_params="checked=False", core_args=""), tmp_path)
    assert ("FX201", 13) in forwarded
    assert kept == []


def test_is_fx_tracing_guard_prunes(tmp_path):
    source = model("if not torch.fx._symbolic_trace.is_fx_tracing():\n    n = int(x.size(0))\n    x = x * n\nreturn x")
    assert lint_one(source, tmp_path) == []


def test_a_run_with_fx_trace_rules_stays_in_one_process(tmp_path, monkeypatch):
    """Parameters take their taint from callers in any file, so the run is not split (same findings for any
    --jobs)."""
    from jitlint import engine, pipeline
    from jitlint.config import Config

    for n in range(12):
        (tmp_path / f"m{n}.py").write_text(FAILS["if-shape"])
    used = []
    real = pipeline.run_split
    monkeypatch.setattr(pipeline, "run_split", lambda job, shares, *rest: used.append(len(shares)) or real(
        job, shares, *rest))
    one = engine.lint_run([tmp_path], Config(root=tmp_path), FX, jobs=1)
    two = engine.lint_run([tmp_path], Config(root=tmp_path), FX, jobs=2)
    assert used == [] and len(one.findings) == 12
    assert [f.to_json() for f in two.findings] == [f.to_json() for f in one.findings]


def _made_constant(source: str, rows: list[int]) -> str:
    """`source` with the marked statements at `rows` made to run without a Proxy: an `if` tests False, another
    statement is `pass`."""
    lines = source.splitlines()
    for row in rows:
        line = lines[row - 1]
        indent = line[: len(line) - len(line.lstrip())]
        lines[row - 1] = indent + ("if False:" if line.lstrip().startswith("if ") else "pass")
    return "\n".join(lines) + "\n"


# Parts whose failures only a trace of the part alone meets: (the part, the model holding it). Traced as a part the
# model traces; traced alone the part fails at its first marked line (torch 2.13).
ALONE_CASES = {
    # a static forward called by its parent gets the parent's tensor; traced alone, the module itself
    "static-forward-submodule": (H + "class Act(nn.Module):\n    @staticmethod\n    def forward(x):\n"
                                 "        return x * torch.sigmoid(x)  # error: FX213\n",
                                 "\n\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                                 "        self.act = Act()\n\n    def forward(self, x):\n        return self.act(x)\n"),
    # a flag its parent passes as a constant
    "flag-passed-by-parent": (H + "class Block(nn.Module):\n    def forward(self, x, return_all):\n"
                              "        if return_all:  # error: FX201\n            return x, x\n        return x\n",
                              "\n\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                              "        self.block = Block()\n\n    def forward(self, x):\n"
                              "        return self.block(x, False)\n"),
    # a module taking a dict of features it reads and writes: its parent passes a dict; traced alone, the dict is
    # one Proxy, and assigning into it fails
    "features-dict": (H + "class Dense(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                      "        self.linear = nn.Linear(4, 4)\n\n    def forward(self, features):\n"
                      "        out = self.linear(features[\"token_embeddings\"])\n"
                      "        features[\"sentence_embedding\"] = out  # error: FX205\n        return features\n",
                      "\n\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                      "        self.dense = Dense()\n\n    def forward(self, x):\n"
                      "        return self.dense({\"token_embeddings\": x})[\"sentence_embedding\"]\n"),
    # `features.get(name)` of a Proxy is a Proxy (never None), so the assignment under the test runs and fails
    "features-dict-get": (H + "class Normalize(nn.Module):\n    def forward(self, features):\n"
                          "        x = features.get(\"sentence_embedding\")\n        if x is not None:\n"
                          "            features[\"sentence_embedding\"] = x / x.norm()  # error: FX205\n"
                          "        return features\n",
                          "\n\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                          "        self.norm = Normalize()\n\n    def forward(self, x):\n"
                          "        return self.norm({\"sentence_embedding\": x})[\"sentence_embedding\"]\n"),
    # `key in features` on a Proxy iterates it
    "features-dict-in": (H + "class Pooling(nn.Module):\n    def forward(self, features):\n"
                         "        x = features[\"token_embeddings\"]\n"
                         "        if \"attention_mask\" in features:  # error: FX203\n"
                         "            x = x * features[\"attention_mask\"].unsqueeze(-1)\n"
                         "        return {\"sentence_embedding\": x.mean(1)}\n",
                         "\n\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                         "        self.pool = Pooling()\n\n    def forward(self, x):\n"
                         "        return self.pool({\"token_embeddings\": x})[\"sentence_embedding\"]\n"),
}


@pytest.mark.parametrize("name", sorted(ALONE_CASES))
def test_parts_traced_on_their_own(name, tmp_path):
    part, holder = ALONE_CASES[name]
    findings = lint_files({"model.py": part + holder}, tmp_path / "lint", codes=FX)
    assert sorted((f.code, f.location.row) for f in findings) == marks(part)
    assert all(_alone_note(f.message) for f in findings), [f.message for f in findings]
    (tmp_path / "torch").mkdir()
    traced = trace_sources({"model": part + holder, "part": part}, tmp_path / "torch")
    assert traced["model"].ok, traced["model"]
    assert traced["part"].rejected and traced["part"].line == marks(part)[0][1], traced["part"]


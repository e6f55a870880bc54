"""Random model code in the shape people write for TorchScript: `nn.Module` subclasses and free functions.

A model of programs, not of any checker: every program is built from typed building blocks (expressions of a
known Python type, statements that keep a typed scope), so most of them are meant to compile, and a share carry a
mistake people make (a variable re-typed, an `Optional` used without a check, a float where a size goes, a module
list indexed by a variable, a Python value TorchScript cannot hold, ...). Whether a program compiles is never
decided here: `torch.jit.script` is the judge. The blocks used are recorded as the program's `features`, for
reading a report, never written into the program.

    generate(seed, count) -> [Program]        # deterministic for (seed, index)

Each program is a standalone file: importing it defines the code; running it scripts its root
(`torch.jit.script(Model())` or `torch.jit.script(entry)`) under `if __name__ == "__main__":`. Constructors take
no argument, so a program can be built and scripted by name.
"""

from __future__ import annotations

import ast
import random
from contextlib import contextmanager
from dataclasses import dataclass, field

# -- types ----------------------------------------------------------------------------------------------------------
# Atomic types are strings; containers are tuples: ("List", t), ("Tuple", t, ...), ("Dict", k, v), ("Optional", t),
# ("Union", t, ...).
T, INT, FLOAT, BOOL, STR, NONE = "Tensor", "int", "float", "bool", "str", "None"


def List(t):  # noqa: N802 - reads like the annotation it models
    return ("List", t)


def Tuple(*ts):  # noqa: N802
    return ("Tuple", *ts)


def Dict(k, v):  # noqa: N802
    return ("Dict", k, v)


def Optional(t):  # noqa: N802
    return ("Optional", t)


def Union(*ts):  # noqa: N802
    return ("Union", *ts)


SCALARS = (INT, FLOAT, BOOL, STR)

NAME_POOLS = {
    T: ["h", "y", "out", "feat", "z", "hidden", "res", "tmp", "logits", "attn", "act", "emb"],
    INT: ["n", "k", "size", "count", "steps", "dim", "width", "length", "num", "idx"],
    FLOAT: ["scale", "ratio", "eps", "alpha", "temp", "gamma", "weight", "factor"],
    BOOL: ["flag", "ok", "done", "use_skip", "keep", "is_valid"],
    STR: ["name", "mode", "msg", "key", "tag", "label"],
    "list": ["sizes", "parts", "dims", "outs", "vals", "items", "chunks", "acc"],
    "dict": ["table", "cache", "feats", "stats", "outputs"],
    "tuple": ["pair", "shape2", "both", "result"],
    "opt": ["maybe", "extra", "prev", "state"],
}

RESERVED = {"torch", "nn", "F", "np", "math", "self", "x", "List", "Dict", "Tuple", "Optional", "Union", "Final",
            "Tensor", "print", "len", "range", "int", "float", "str", "bool", "list", "dict", "tuple", "max", "min",
            "abs", "sum", "any", "all", "zip", "enumerate", "sorted", "round", "isinstance", "super", "entry",
            "Model", "Any", "i", "j", "t", "v", "kk", "vv", "layer", "name_", "m", "e"}


def pool_of(t) -> list[str]:
    if t in NAME_POOLS:
        return NAME_POOLS[t]
    kind = t[0]
    return NAME_POOLS[{"List": "list", "Dict": "dict", "Tuple": "tuple", "Optional": "opt", "Union": "opt"}[kind]]


@dataclass
class Program:
    """One generated file: its source, the root torch scripts, and the blocks it was built from."""

    index: int
    seed: int
    source: str
    kind: str  # "module" (root `Model`, scripted as `torch.jit.script(Model())`) or "function" (root `entry`)
    features: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"prog_{self.seed}_{self.index:05d}"

    @property
    def root(self) -> str:
        return "Model" if self.kind == "module" else "entry"


# -- the pieces of one file -------------------------------------------------------------------------------------------
@dataclass
class Attr:
    """A module attribute set in `__init__`: how it is used from compiled code."""

    name: str
    kind: str  # "value" (a TorchScript value of `type`), "module", "modulelist", "moduledict", "sequential",
    #            "none", "unsupported", "final"
    type: object = None
    extra: dict = field(default_factory=dict)


@dataclass
class Func:
    """A function being built (forward, a method, a helper, the free `entry`)."""

    name: str
    params: list[str] = field(default_factory=list)  # rendered parameters
    ret: object = T  # its return type (what the body returns)
    ret_annotation: str | None = None
    decorators: list[str] = field(default_factory=list)
    lines: list[tuple[int, str]] = field(default_factory=list)
    is_method: bool = False
    type_comment: str | None = None

    def render(self, indent: int) -> list[str]:
        pad = "    " * indent
        out = [pad + d for d in self.decorators]
        params = (["self"] if self.is_method else []) + self.params
        arrow = f" -> {self.ret_annotation}" if self.ret_annotation else ""
        out.append(f"{pad}def {self.name}({', '.join(params)}){arrow}:")
        if self.type_comment:
            out.append(f"{pad}    # type: {self.type_comment}")
        body = self.lines or [(0, "pass")]
        out.extend(f"{pad}    {'    ' * depth}{text}" for depth, text in body)
        return out


class File:
    """What a program's file accumulates: imports, globals, helpers, module classes."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.imports: set[str] = {"import torch"}
        self.typing: set[str] = set()
        self.globals: list[str] = []
        self.global_types: dict[str, object] = {}  # usable module-level constants and their types
        self.unsupported_globals: dict[str, str] = {}  # name -> what it holds (a value TorchScript cannot hold)
        self.helpers: list[Func] = []
        self.helper_sigs: dict[str, tuple[list[tuple[str, object]], object]] = {}  # callable helpers
        self.classes: list[list[str]] = []  # rendered extra classes, in order
        self.block_classes: list[str] = []  # helper module classes: name
        self.exception: str | None = None  # the file's own exception class, once defined
        self.features: list[str] = []
        self.tensor_ann = rng.choice(["torch.Tensor", "torch.Tensor", "Tensor"])
        self.builtin_generics = rng.random() < 0.15  # `list[int]` instead of `List[int]`
        if self.tensor_ann == "Tensor":
            self.imports.add("from torch import Tensor")
        self.nn_import = rng.choice(["from torch import nn", "import torch.nn as nn"])
        self.counter = 0

    def uses(self, module: str) -> None:
        self.imports.add({
            "nn": self.nn_import, "F": "import torch.nn.functional as F", "np": "import numpy as np",
            "math": "import math",
        }[module])

    def ann(self, t) -> str:
        """The annotation text of a type (imports what it needs)."""
        if t == T:
            return self.tensor_ann
        if t in SCALARS:
            return t
        if t == NONE:
            return "None"
        kind, *args = t
        if kind == "Optional":
            self.typing.add("Optional")
            return f"Optional[{self.ann(args[0])}]"
        if kind == "Union":
            self.typing.add("Union")
            return f"Union[{', '.join(self.ann(a) for a in args)}]"
        if self.builtin_generics:
            name = {"List": "list", "Tuple": "tuple", "Dict": "dict"}[kind]
        else:
            self.typing.add(kind)
            name = kind
        return f"{name}[{', '.join(self.ann(a) for a in args)}]"

    def fresh_global(self, base: str) -> str:
        self.counter += 1
        return f"{base}_{self.counter}" if any(g.startswith(base + " ") for g in self.globals) else base

    def header(self) -> list[str]:
        order = ["import math", "import numpy as np", "import torch", "import torch.nn as nn",
                 "import torch.nn.functional as F", "from torch import Tensor", "from torch import nn"]
        lines = [line for line in order if line in self.imports]
        if self.typing:
            lines.append(f"from typing import {', '.join(sorted(self.typing))}")
        return lines


# -- expressions --------------------------------------------------------------------------------------------------------
class Scope:
    def __init__(self, variables: dict | None = None):
        self.vars: dict[str, object] = dict(variables or {})

    def of(self, t) -> list[str]:
        return [name for name, vt in self.vars.items() if vt == t]


class Builder:
    """Builds one function body: typed expressions and statements over a scope."""

    def __init__(self, gen: "Generator", func: Func, scope: dict, module: "ModuleCtx | None"):
        self.gen = gen
        self.rng = gen.rng
        self.file = gen.file
        self.func = func
        self.scope = Scope(scope)
        self.module = module
        self.depth = 0
        self.in_loop = False
        self.names: set[str] = set(scope)
        self.main = next((n for n, t in scope.items() if t == T), "x")  # the tensor the body threads through

    # -- emitting ----------------------------------------------------------------------------------------------------
    def emit(self, text: str) -> None:
        self.func.lines.append((self.depth, text))

    @contextmanager
    def nested(self, header: str, loop: bool = False):
        """A block: variables it introduces do not outlive it."""
        self.emit(header)
        self.depth += 1
        saved, saved_loop, before = dict(self.scope.vars), self.in_loop, len(self.func.lines)
        saved_main = self.main
        self.in_loop = self.in_loop or loop
        try:
            yield
        finally:
            if len(self.func.lines) == before:
                self.emit("pass")
            self.depth -= 1
            self.in_loop = saved_loop
            self.scope.vars = saved
            if self.main not in self.scope.vars:
                self.main = saved_main

    def fresh(self, t, prefer: str | None = None) -> str:
        pool = [prefer] if prefer else pool_of(t)
        base = self.rng.choice(pool)
        name, n = base, 1
        taken = {h.name for h in self.file.helpers} | set(self.file.global_types) | set(self.file.unsupported_globals)
        while name in self.names or name in RESERVED or name in taken:
            name = f"{base}{n}"
            n += 1
        self.names.add(name)
        return name

    def bind(self, name: str, t) -> None:
        self.scope.vars[name] = t
        self.names.add(name)

    def var(self, t) -> str | None:
        found = self.scope.of(t)
        return self.rng.choice(found) if found else None

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, options):
        """One of `options`, each an (weight, thunk) whose thunk may return None (not applicable here)."""
        options = list(options)
        while options:
            weights = [w for w, _ in options]
            i = self.rng.choices(range(len(options)), weights)[0]
            value = options[i][1]()
            if value is not None:
                return value
            options.pop(i)
        raise AssertionError("no applicable option")

    # -- typed expressions ---------------------------------------------------------------------------------------
    def expr(self, t, d: int = 2) -> str:
        if t == T:
            return self.tensor(d)
        if t == INT:
            return self.int_(d)
        if t == FLOAT:
            return self.float_(d)
        if t == BOOL:
            return self.bool_(d)
        if t == STR:
            return self.str_(d)
        if t == NONE:
            return "None"
        kind = t[0]
        if kind == "List":
            return self.list_(t[1], d)
        if kind == "Tuple":
            v = self.var(t)
            if v and self.chance(0.5):
                return v
            return "(" + ", ".join(self.expr(a, d - 1) for a in t[1:]) + ("," if len(t) == 2 else "") + ")"
        if kind == "Dict":
            return self.dict_(t, d)
        if kind == "Optional":
            v = self.var(t)
            if v and self.chance(0.6):
                return v
            return "None" if self.chance(0.4) else self.expr(t[1], d - 1)
        if kind == "Union":
            return self.expr(self.rng.choice(t[1:]), d)
        raise AssertionError(t)

    def attr_of(self, t) -> str | None:
        if self.module is None:
            return None
        names = [a.name for a in self.module.attrs if a.kind in ("value", "final") and a.type == t
                 and a.extra.get("usable", True)]
        return f"self.{self.rng.choice(names)}" if names else None

    def global_of(self, t) -> str | None:
        names = [n for n, gt in self.file.global_types.items() if gt == t]
        return self.rng.choice(names) if names else None

    def small_int(self) -> str:
        return str(self.rng.choice([0, 1, 1, 2, 2, 3, 4, 8, 16, -1]))

    def dim(self) -> str:
        return str(self.rng.choice([0, 1, -1, -1, 1, 2]))

    def tensor(self, d: int) -> str:
        leaf = self.var(T) or "x"
        if d <= 0:
            return self.pick([
                (6, lambda: self.var(T)),
                (1, lambda: self.attr_of(T)),
                (1, lambda: f"torch.zeros({self.small_pos()}, {self.small_pos()})"),
                (1, lambda: f"torch.ones({self.small_pos()})"),
                (1, lambda: leaf),
            ])
        sub = lambda: self.tensor(d - 1)  # noqa: E731
        recv = lambda: self.paren(self.tensor(d - 1))  # noqa: E731  (the receiver of a method call)
        return self.pick([
            (8, lambda: self.var(T)),
            (2, lambda: self.attr_of(T)),
            (6, lambda: f"{self.rng.choice(['torch.relu', 'torch.sigmoid', 'torch.tanh', 'torch.abs'])}({sub()})"),
            (6, lambda: f"{recv()}.{self.rng.choice(['relu', 'sigmoid', 'abs', 'exp', 'neg', 'contiguous', 'float', 'clone', 'detach', 'tanh'])}()"),
            (4, lambda: self.functional(f"{self.rng.choice(['relu', 'gelu', 'silu', 'sigmoid'])}({sub()})")),
            (8, lambda: f"{sub()} {self.rng.choice(['+', '-', '*', '/'])} {self.tensor(d - 1)}"),
            (6, lambda: f"{sub()} {self.rng.choice(['+', '*', '-'])} {self.scalar_operand(d - 1)}"),
            (2, lambda: f"{self.scalar_operand(d - 1)} * {sub()}"),
            (2, lambda: f"{sub()} ** 2"),
            (2, lambda: f"torch.matmul({sub()}, {self.tensor(d - 1)})"),
            (1, lambda: f"{sub()} @ {self.tensor(d - 1)}"),
            (2, lambda: f"torch.where({sub()} > 0, {leaf}, {self.tensor(d - 1)})"),
            (2, lambda: f"{recv()}.masked_fill({leaf} < 0, {self.rng.choice(['0.0', '0', '-1e9'])})"),
            (12, lambda: self.shape_op(recv())),
            (8, lambda: self.reduction(recv())),
            (5, lambda: self.construct()),
            (4, lambda: self.combine(d)),
            (4, lambda: self.clamp(recv())),
            (3, lambda: self.convert(recv())),
            (4, lambda: self.fnn(sub())),
            (6, lambda: self.submodule_call(sub())),
            (3, lambda: self.helper_call(T, d)),
            (2, lambda: self.refined_optional(T)),
            (2, lambda: f"({sub()} if {self.bool_(d - 1)} else {self.tensor(d - 1)})"),
            (2, lambda: self.index_tensor(recv())),
            (0.2, lambda: self.global_of(T)),
        ])

    @staticmethod
    def paren(e: str) -> str:
        """`e` as the receiver of `.method()` or `[...]`: parenthesised unless it is a name, call, attribute or
        subscript."""
        try:
            node = ast.parse(e, mode="eval").body
        except SyntaxError:
            return f"({e})"
        return e if isinstance(node, (ast.Name, ast.Call, ast.Attribute, ast.Subscript, ast.List)) else f"({e})"

    @staticmethod
    def quoted(e: str) -> str:
        """`e` inside an f-string's braces (double quotes would end the f-string before Python 3.12)."""
        return e.replace('"', "'")

    def functional(self, call: str) -> str:
        self.file.uses("F")
        return f"F.{call}"

    def small_pos(self) -> str:
        return str(self.rng.choice([1, 2, 3, 4, 8]))

    def scalar_operand(self, d: int) -> str:
        return self.pick([
            (4, lambda: self.rng.choice(["2", "0.5", "1.0", "3", "1e-6", "2.0"])),
            (2, lambda: self.var(FLOAT)),
            (2, lambda: self.var(INT)),
            (1, lambda: self.attr_of(FLOAT)),
            (1, lambda: self.attr_of(INT)),
            (0.3, lambda: self.global_of(FLOAT)),
            (0.3, lambda: self.global_of(INT)),
        ])

    def shape_op(self, e: str) -> str:
        n = lambda: self.int_(1)  # noqa: E731
        return self.pick([
            (3, lambda: f"{e}.view(-1)"),
            (3, lambda: f"{e}.view({n()}, -1)"),
            (2, lambda: f"{e}.view([{n()}, -1])"),
            (2, lambda: f"{e}.view({self.main}.size(0), -1)"),
            (2, lambda: f"{e}.view({self.main}.shape[0], -1)"),
            (3, lambda: f"{e}.reshape({n()}, -1)"),
            (2, lambda: f"{e}.reshape({self.list_(INT, 1)})"),
            (2, lambda: f"{e}.reshape(-1, {n()})"),
            (2, lambda: f"{e}.permute({', '.join(self.rng.sample(['0', '1', '2'], 3))})"),
            (2, lambda: f"{e}.permute([{', '.join(self.rng.sample(['0', '1', '2'], 3))}])"),
            (1, lambda: f"{e}.permute((0, 2, 1))"),
            (2, lambda: f"{e}.transpose({self.dim()}, {self.dim()})"),
            (2, lambda: f"{e}.flatten({self.rng.choice(['1', '', '0, -1', 'start_dim=1'])})"),
            (1, lambda: f"torch.flatten({e}, 1)"),
            (3, lambda: f"{e}.unsqueeze({self.dim()})"),
            (2, lambda: f"{e}.squeeze({self.rng.choice(['-1', '0', '1', ''])})"),
            (1, lambda: f"{e}.expand({n()}, -1)"),
            (1, lambda: f"{e}.repeat(1, {n()})"),
            (1, lambda: f"{e}.narrow(0, 0, {n()})"),
            (1, lambda: f"{e}.t()"),
        ])

    def reduction(self, e: str) -> str:
        return self.pick([
            (2, lambda: f"{e}.sum()"),
            (3, lambda: f"{e}.sum(dim={self.dim()})"),
            (2, lambda: f"{e}.sum(dim=(0, 1))"),
            (2, lambda: f"{e}.sum(dim=[{self.dim()}], keepdim=True)"),
            (1, lambda: f"{e}.sum({self.dim()})"),
            (2, lambda: f"{e}.mean({self.dim()})"),
            (2, lambda: f"{e}.mean(dim={self.dim()}, keepdim=True)"),
            (1, lambda: f"torch.sum({e}, dim={self.dim()})"),
            (1, lambda: f"torch.mean({e}, {self.dim()}, True)"),
            (1, lambda: f"{e}.max()"),
            (1, lambda: f"{e}.max(dim={self.dim()})[0]"),
            (1, lambda: f"torch.max({e}, {self.dim()})[1]"),
            (1, lambda: f"{e}.max(dim=1).values"),
            (1, lambda: f"{e}.amax(dim=-1)"),
            (1, lambda: f"{e}.norm(dim=-1, keepdim=True)"),
            (2, lambda: f"torch.softmax({e}, dim={self.dim()})"),
            (2, lambda: self.functional(f"softmax({e}, dim={self.dim()})")),
            (1, lambda: f"{e}.softmax(-1)"),
            (1, lambda: self.functional(f"normalize({e}, dim=-1)")),
            (1, lambda: f"torch.cumsum({e}, dim=0)"),
            (1, lambda: f"{e}.var(dim=0)"),
        ])

    def construct(self) -> str:
        n = lambda: self.int_(1)  # noqa: E731
        like = self.var(T) or "x"
        return self.pick([
            (3, lambda: f"torch.zeros({n()}, {n()})"),
            (2, lambda: f"torch.zeros([{n()}, {n()}])"),
            (1, lambda: f"torch.zeros(({n()},))"),
            (2, lambda: f"torch.ones({n()})"),
            (2, lambda: f"torch.full(({n()}, {n()}), {self.float_(0)})"),
            (1, lambda: f"torch.full([{n()}], {self.float_(0)})"),
            (2, lambda: f"torch.zeros_like({like})"),
            (1, lambda: f"torch.ones_like({like})"),
            (1, lambda: f"{like}.new_zeros([{n()}])"),
            (1, lambda: f"{like}.new_ones({like}.shape)"),
            (1, lambda: f"torch.arange({n()})"),
            (1, lambda: f"torch.arange(0, {n()}, dtype=torch.float32)"),
            (1, lambda: f"torch.randn({n()}, {n()})"),
            (1, lambda: f"torch.rand_like({like})"),
            (1, lambda: f"torch.tensor({self.list_(FLOAT, 0)})"),
            (1, lambda: f"torch.tensor({self.float_(0)})"),
            (1, lambda: f"torch.eye({n()})"),
            (1, lambda: f"torch.linspace(0.0, 1.0, {n()})"),
            (1, lambda: f"torch.zeros({n()}, device={like}.device, dtype={like}.dtype)"),
        ])

    def combine(self, d: int) -> str:
        a, b = self.tensor(d - 1), self.tensor(d - 1)
        return self.pick([
            (3, lambda: f"torch.cat([{a}, {b}], dim={self.dim()})"),
            (2, lambda: f"torch.cat(({a}, {b}), {self.dim()})"),
            (2, lambda: f"torch.cat({self.var(List(T))}, dim=0)" if self.var(List(T)) else None),
            (2, lambda: f"torch.stack([{a}, {b}])"),
            (1, lambda: f"torch.stack([{a}, {b}], dim={self.dim()})"),
            (1, lambda: f"torch.stack({self.var(List(T))}, 0)" if self.var(List(T)) else None),
        ])

    def clamp(self, e: str) -> str:
        return self.pick([
            (2, lambda: f"{e}.clamp(min={self.rng.choice(['0.0', '0', '1e-6'])})"),
            (2, lambda: f"{e}.clamp({self.rng.choice(['0.0', '-1.0'])}, {self.rng.choice(['1.0', '6.0'])})"),
            (1, lambda: f"torch.clamp({e}, min={self.float_(0)}, max={self.float_(0)})"),
            (1, lambda: f"torch.clamp({e}, max={self.int_(0)})"),
            (1, lambda: f"{e}.clamp_min({self.float_(0)})"),
            (1, lambda: f"{e}.clamp(max={self.var(FLOAT) or '1.0'})"),
        ])

    def convert(self, e: str) -> str:
        other = self.var(T) or "x"
        return self.pick([
            (2, lambda: f"{e}.to(torch.float32)"),
            (1, lambda: f"{e}.to(dtype=torch.float64)"),
            (2, lambda: f"{e}.to({other}.device)"),
            (1, lambda: f"{e}.to(device={other}.device, dtype={other}.dtype)"),
            (1, lambda: f"{e}.to({other})"),
            (1, lambda: f'{e}.to("cpu")'),
            (1, lambda: f"{e}.type_as({other})"),
            (1, lambda: f"{e}.double()"),
            (1, lambda: f"{e}.to(torch.long).float()"),
        ])

    def fnn(self, e: str) -> str:
        n = lambda: self.int_(0)  # noqa: E731
        return self.functional(self.pick([
            (2, lambda: f'interpolate({e}, scale_factor=2.0, mode="nearest")'),
            (2, lambda: f'interpolate({e}, size=[{n()}, {n()}], mode="bilinear", align_corners=False)'),
            (1, lambda: f"interpolate({e}, size=({n()}, {n()}))"),
            (2, lambda: f"pad({e}, [1, 1])"),
            (1, lambda: f'pad({e}, (1, 1, 1, 1), mode="constant", value=0.0)'),
            (1, lambda: f"pad({e}, [0, {n()}])"),
            (2, lambda: f"dropout({e}, p=0.1, training=self.training)" if self.module else f"dropout({e}, 0.1)"),
            (1, lambda: f"avg_pool2d({e}, 2)"),
            (1, lambda: f"max_pool2d({e}, kernel_size=2, stride=2)"),
            (1, lambda: f"adaptive_avg_pool2d({e}, 1)"),
            (1, lambda: f"adaptive_avg_pool2d({e}, (1, 1))"),
            (1, lambda: f"layer_norm({e}, [{n()}])"),
            (1, lambda: f"leaky_relu({e}, 0.2)"),
            (1, lambda: f"linear({e}, {self.var(T) or 'x'})"),
        ]))

    def index_tensor(self, e: str) -> str:
        return self.rng.choice([f"{e}[0]", f"{e}[:, 0]", f"{e}[..., :2]", f"{e}[1:]", f"{e}[:, :{self.int_(0)}]",
                                f"{e}[::2]", f"{e}[None]", f"{e}[:, None]"])

    def submodule_call(self, e: str) -> str | None:
        if self.module is None:
            return None
        calls = []
        for a in self.module.attrs:
            if a.kind == "module":
                calls.append(f"self.{a.name}({e})")
            elif a.kind == "sequential":
                calls.append(f"self.{a.name}({e})")
            elif a.kind == "modulelist":
                calls.append(f"self.{a.name}[{self.rng.choice(['0', '-1', '0'])}]({e})")
            elif a.kind == "moduledict":
                calls.append(f'self.{a.name}["{self.rng.choice(a.extra["keys"])}"]({e})')
        return self.rng.choice(calls) if calls else None

    def helper_call(self, t, d: int) -> str | None:
        found = [(name, sig) for name, sig in self.gen.callables(self.module).items() if sig[1] == t]
        if not found:
            return None
        name, (params, _) = self.rng.choice(found)
        args, keywords = [], False
        for pname, pt, has_default in params:
            if has_default and self.chance(0.4):
                keywords = True  # a skipped defaulted parameter: what follows goes by keyword
                continue
            text = self.expr(pt, max(0, d - 1))
            keywords = keywords or (bool(args) and self.chance(0.15))
            args.append(f"{pname}={text}" if keywords else text)
        return f"{name}({', '.join(args)})"

    def refined_optional(self, t) -> str | None:
        v = self.var(Optional(t))
        if v is None:
            return None
        return f"({v} if {v} is not None else {self.expr(t, 0)})"

    def int_(self, d: int) -> str:
        main = self.var(T) or "x"
        if d <= 0:
            return self.pick([
                (4, lambda: self.small_pos()),
                (3, lambda: self.var(INT)),
                (1, lambda: self.attr_of(INT)),
                (0.3, lambda: self.global_of(INT)),
                (1, lambda: f"{main}.size({self.dim()})"),
            ])
        return self.pick([
            (4, lambda: self.small_int()),
            (6, lambda: self.var(INT)),
            (3, lambda: f"{main}.size({self.dim()})"),
            (3, lambda: f"{main}.shape[{self.dim()}]"),
            (1, lambda: f"{main}.dim()"),
            (1, lambda: f"{main}.numel()"),
            (2, lambda: f"len({self.list_var()})" if self.list_var() else None),
            (3, lambda: f"{self.int_(d - 1)} {self.rng.choice(['+', '-', '*', '//', '%'])} {self.int_(d - 1)}"),
            (1, lambda: f"max({self.int_(d - 1)}, {self.int_(d - 1)})"),
            (1, lambda: f"min({self.int_(d - 1)}, {self.int_(d - 1)})"),
            (1, lambda: f"abs({self.int_(d - 1)})"),
            (1, lambda: f"int({self.float_(d - 1)})"),
            (1, lambda: f"int({main}.sum())"),
            (1, lambda: self.math(f"floor({self.float_(d - 1)})")),
            (1, lambda: self.math(f"ceil({self.float_(d - 1)})")),
            (2, lambda: self.attr_of(INT)),
            (0.5, lambda: self.global_of(INT)),
            (1, lambda: f"{self.var(List(INT))}[{self.rng.choice(['0', '-1'])}]" if self.var(List(INT)) else None),
            (1, lambda: f"len(self.{self.module.modulelists[0]})" if self.module and self.module.modulelists else None),
            (1, lambda: self.helper_call(INT, d)),
            (1, lambda: self.refined_optional(INT)),
        ])

    def math(self, call: str) -> str:
        self.file.uses("math")
        return f"math.{call}"

    def list_var(self) -> str | None:
        found = [n for n, t in self.scope.vars.items() if isinstance(t, tuple) and t[0] == "List"]
        return self.rng.choice(found) if found else None

    def float_(self, d: int) -> str:
        if d <= 0:
            return self.pick([
                (4, lambda: self.rng.choice(["0.5", "1.0", "2.0", "1e-5", "0.1", "3.0"])),
                (3, lambda: self.var(FLOAT)),
                (1, lambda: self.attr_of(FLOAT)),
                (0.3, lambda: self.global_of(FLOAT)),
            ])
        main = self.var(T) or "x"
        return self.pick([
            (4, lambda: self.rng.choice(["0.5", "1.0", "2.0", "1e-5", "0.1", "3.0"])),
            (6, lambda: self.var(FLOAT)),
            (3, lambda: f"{self.float_(d - 1)} {self.rng.choice(['+', '-', '*', '/'])} {self.float_(d - 1)}"),
            (2, lambda: f"{self.float_(d - 1)} * {self.int_(d - 1)}"),
            (2, lambda: f"{self.int_(d - 1)} / {self.int_(d - 1)}"),
            (2, lambda: f"float({self.int_(d - 1)})"),
            (1, lambda: f"float({main}.sum())"),
            (1, lambda: f"float({main}.mean().item())"),
            (2, lambda: self.math(f"sqrt({self.float_(d - 1)})")),
            (1, lambda: self.math(f"log({self.float_(d - 1)})")),
            (1, lambda: self.math(f"exp({self.float_(d - 1)})")),
            (1, lambda: self.math("pi")),
            (1, lambda: f"max({self.float_(d - 1)}, {self.float_(d - 1)})"),
            (2, lambda: self.attr_of(FLOAT)),
            (0.5, lambda: self.global_of(FLOAT)),
            (1, lambda: f"{self.var(List(FLOAT))}[0]" if self.var(List(FLOAT)) else None),
            (1, lambda: self.helper_call(FLOAT, d)),
            (1, lambda: self.refined_optional(FLOAT)),
        ])

    def bool_(self, d: int) -> str:
        main = self.var(T) or "x"
        options = [
            (2, lambda: self.rng.choice(["True", "False"]) if d <= 0 else None),
            (4, lambda: self.var(BOOL)),
            (5, lambda: f"{self.int_(max(0, d - 1))} {self.rng.choice(['>', '<', '==', '!=', '>=', '<='])} "
                        f"{self.int_(0)}"),
            (2, lambda: f"{self.float_(max(0, d - 1))} {self.rng.choice(['>', '<'])} {self.float_(0)}"),
            (3, lambda: f"{main}.dim() == {self.rng.choice(['2', '3', '4'])}"),
            (2, lambda: "self.training" if self.module else None),
            (1, lambda: f"not {self.bool_(0)}" if d > 0 else None),
            (2, lambda: f"{self.bool_(0)} {self.rng.choice(['and', 'or'])} {self.bool_(0)}" if d > 0 else None),
            (2, lambda: self.none_test()),
            (1, lambda: f"{main}.is_floating_point()"),
            (1, lambda: f"bool({main}.any())"),
            (1, lambda: f"{main}.numel() > 0"),
            (1, lambda: f'"{self.rng.choice(["a", "out"])}" in {self.var(Dict(STR, T))}' if self.var(Dict(STR, T)) else None),
            (1, lambda: f"{self.int_(0)} in {self.var(List(INT))}" if self.var(List(INT)) else None),
            (1, lambda: f'{self.str_(0)} == "{self.rng.choice(["mean", "sum", "a"])}"'),
            (2, lambda: self.attr_of(BOOL)),
            (0.3, lambda: self.global_of(BOOL)),
            (1, lambda: "torch.jit.is_scripting()"),
            (1, lambda: f"{main}.requires_grad"),
        ]
        return self.pick(options)

    def none_test(self) -> str | None:
        opts = [n for n, t in self.scope.vars.items() if isinstance(t, tuple) and t[0] == "Optional"]
        if not opts:
            return None
        return f"{self.rng.choice(opts)} is {self.rng.choice(['', 'not '])}None"

    def str_(self, d: int) -> str:
        if d <= 0:
            return self.pick([
                (3, lambda: f'"{self.rng.choice(["mean", "sum", "a", "layer", "out", "none"])}"'),
                (3, lambda: self.var(STR)),
                (1, lambda: self.attr_of(STR)),
                (0.3, lambda: self.global_of(STR)),
            ])
        return self.pick([
            (3, lambda: f'"{self.rng.choice(["mean", "sum", "a", "layer", "out", "none"])}"'),
            (4, lambda: self.var(STR)),
            (2, lambda: f'f"{{{self.quoted(self.str_(0))}}}_{{{self.int_(0)}}}"'),
            (1, lambda: f'f"shape={{{self.var(T) or "x"}.shape}}"'),
            (2, lambda: f'{self.str_(d - 1)} + "_{self.rng.choice(["x", "1", "out"])}"'),
            (2, lambda: f"str({self.int_(d - 1)})"),
            (1, lambda: f"{self.paren(self.str_(d - 1))}.upper()"),
            (1, lambda: f"{self.paren(self.str_(d - 1))}.strip()"),
            (1, lambda: f'"{{}}_{{}}".format({self.str_(0)}, {self.int_(0)})'),
            (1, lambda: f'"-".join({self.var(List(STR))})' if self.var(List(STR)) else None),
            (1, lambda: f'{self.paren(self.str_(0))}.replace("a", "b")'),
            (2, lambda: self.attr_of(STR)),
            (0.3, lambda: self.global_of(STR)),
        ])

    def list_(self, elem, d: int) -> str:
        v = self.var(List(elem))
        if d <= 0:
            if v and self.chance(0.7):
                return v
            return f"[{', '.join(self.expr(elem, 0) for _ in range(self.rng.randint(1, 3)))}]"
        main = self.var(T) or "x"
        options = [
            (5, lambda: v),
            (4, lambda: f"[{', '.join(self.expr(elem, 0) for _ in range(self.rng.randint(1, 3)))}]"),
            (1, lambda: self.attr_of(List(elem))),
            (0.3, lambda: self.global_of(List(elem))),
        ]
        if elem == INT:
            options += [
                (2, lambda: f"list({main}.shape)"),
                (2, lambda: f"{main}.size()"),
                (1, lambda: f"{main}.shape[1:]"),
                (1, lambda: f"list(range({self.int_(0)}))"),
                (1, lambda: f"[{main}.size(0), -1]"),
                (2, lambda: (lambda v: f"[{v} * 2 for {v} in {main}.shape]")(self.rng.choice(["s", "v"]))),
                (1, lambda: f"{v} + [{self.int_(0)}]" if v else None),
                (1, lambda: f"{v}[1:]" if v else None),
            ]
        if elem == T:
            options += [
                (2, lambda: f"{main}.split({self.small_pos()}, dim={self.dim()})"),
                (2, lambda: f"{main}.chunk({self.rng.choice(['2', '3'])}, dim={self.dim()})"),
                (1, lambda: f"torch.unbind({main}, 0)"),
                (1, lambda: f"{main}.unbind({self.dim()})"),
                (2, lambda: f"[t.relu() for t in {v}]" if v else None),
                (2, lambda: f"[layer({main}) for layer in self.{self.module.modulelists[0]}]"
                            if self.module and self.module.modulelists else None),
            ]
        if elem == FLOAT:
            options += [
                (1, lambda: f"[float(s) for s in {main}.shape]"),
                (1, lambda: f"[v * 0.5 for v in {v}]" if v else None),
            ]
        if elem == STR:
            options += [(1, lambda: f'{self.paren(self.str_(0))}.split("_")')]
        return self.pick(options)

    def dict_(self, t, d: int) -> str:
        _, k, val = t
        v = self.var(t)
        options = [
            (5, lambda: v),
            (3, lambda: "{" + ", ".join(f'"{key}": {self.expr(val, 0)}' for key in
                                        self.rng.sample(["a", "b", "out", "aux"], self.rng.randint(1, 2))) + "}"),
            (1, lambda: self.attr_of(t)),
            (1, lambda: f"{{kk: vv for kk, vv in {v}.items()}}" if v else None),
        ]
        return self.pick(options)

    # -- statements ------------------------------------------------------------------------------------------------
    def statements(self, n: int, mistakes: list[str]) -> None:
        """`n` statements, with the planned mistakes placed at random positions among them."""
        slots = sorted(self.rng.sample(range(n + len(mistakes)), len(mistakes)))
        plan = []
        mi = iter(mistakes)
        for position in range(n + len(mistakes)):
            plan.append(next(mi) if position in slots else None)
        for item in plan:
            if item is None:
                self.statement()
            else:
                self.gen.mistake(item, self)

    def statement(self, depth_left: int = 2) -> None:
        kinds = [
            (14, self.st_tensor_assign),
            (5, self.st_scalar_assign),
            (3, self.st_container_assign),
            (4, self.st_if) if depth_left > 0 else (0, None),
            (4, self.st_for_range) if depth_left > 0 else (0, None),
            (2, self.st_for_list) if depth_left > 0 else (0, None),
            (2, self.st_for_modules) if depth_left > 0 and self.module else (0, None),
            (1, self.st_while) if depth_left > 0 else (0, None),
            (3, self.st_append_pattern) if depth_left > 0 else (0, None),
            (2, self.st_dict_pattern) if depth_left > 0 else (0, None),
            (2, self.st_comprehension),
            (3, self.st_optional) if depth_left > 0 else (0, None),
            (2, self.st_unpack),
            (1, self.st_assert),
            (1, self.st_raise) if depth_left > 0 else (0, None),
            (1, self.st_print),
            (1, self.st_with) if depth_left > 0 else (0, None),
            (0.5, self.st_del),
            (2, self.st_early_return) if depth_left > 0 else (0, None),
            (2, self.st_string),
            (1, self.st_math),
            (2, self.st_both_branches) if depth_left > 0 else (0, None),
            (1, self.st_list_methods),
            (1, self.st_scripting_branch) if depth_left > 0 else (0, None),
            (1, self.st_attr_update) if self.module else (0, None),
            (4, self.st_call),
            (2, self.st_none_attribute) if self.module and depth_left > 0 else (0, None),
            (1, self.st_hasattr) if self.module and depth_left > 0 else (0, None),
            (2, self.st_union) if depth_left > 0 else (0, None),
            (1, self.st_raise_refine) if depth_left > 0 else (0, None),
            (2, self.st_moduledict) if self.module and self.module.moduledicts else (0, None),
            (1, self.st_flagged_attribute) if self.module and depth_left > 0 else (0, None),
        ]
        kinds = [(w, f) for w, f in kinds if f is not None and w > 0]
        while True:
            f = self.rng.choices([f for _, f in kinds], [w for w, _ in kinds])[0]
            before = len(self.func.lines)
            if f(depth_left) is not False and len(self.func.lines) > before:
                return

    def assign(self, t, text: str, annotate: float = 0.15, prefer: str | None = None) -> str:
        name = self.fresh(t, prefer)
        if self.chance(annotate):
            self.emit(f"{name}: {self.file.ann(t)} = {text}")
        else:
            self.emit(f"{name} = {text}")
        self.bind(name, t)
        return name

    def st_tensor_assign(self, depth_left):
        e = self.tensor(2)
        target = self.var(T)
        if target and self.chance(0.5):
            if self.chance(0.2):
                self.emit(f"{target} {self.rng.choice(['+=', '*=', '-='])} {self.tensor(1)}")
            else:
                self.emit(f"{target} = {e}")
            if self.chance(0.4) or target == self.main:
                self.main = target
        else:
            self.main = self.assign(T, e, annotate=0.1)

    def st_scalar_assign(self, depth_left):
        t = self.rng.choice([INT, INT, FLOAT, FLOAT, BOOL, STR])
        existing = self.var(t)
        if existing and self.chance(0.35):
            if t in (INT, FLOAT) and self.chance(0.5):
                self.emit(f"{existing} {self.rng.choice(['+=', '*=', '-='])} {self.expr(t, 0)}")
            else:
                self.emit(f"{existing} = {self.expr(t, 2)}")
        else:
            self.assign(t, self.expr(t, 2))

    def st_container_assign(self, depth_left):
        t = self.rng.choice([List(INT), List(INT), List(T), List(FLOAT), Dict(STR, T), Tuple(T, T), Tuple(INT, INT),
                             List(STR), Dict(STR, INT)])
        self.assign(t, self.expr(t, 2), annotate=0.25)

    def cond(self) -> str:
        return self.bool_(2)

    def st_if(self, depth_left):
        with self.nested(f"if {self.cond()}:"):
            for _ in range(self.rng.randint(1, 2)):
                self.statement(depth_left - 1)
        if self.chance(0.4):
            with self.nested("else:" if self.chance(0.8) else f"elif {self.cond()}:"):
                self.statement(depth_left - 1)

    def st_both_branches(self, depth_left):
        """A variable first set in both branches of an `if` (an Optional one declared in the first)."""
        t = self.rng.choice([T, T, INT, FLOAT, List(INT), Optional(T)])
        optional = isinstance(t, tuple) and t[0] == "Optional"
        value_type = t[1] if optional else t
        name = self.fresh(t)
        declared = f"{name}: {self.file.ann(t)}" if optional or self.chance(0.1) else name
        with self.nested(f"if {self.cond()}:"):
            self.emit(f"{declared} = {self.expr(value_type, 2)}")
        with self.nested("else:"):
            self.emit(f"{name} = {'None' if optional and self.chance(0.5) else self.expr(value_type, 2)}")
        self.bind(name, t)

    def loop_body(self, depth_left):
        for _ in range(self.rng.randint(1, 2)):
            self.statement(depth_left - 1)
        if self.chance(0.35):
            with self.nested(f"if {self.cond()}:"):
                self.emit(self.rng.choice(["break", "continue"]))

    def st_for_range(self, depth_left):
        i = self.fresh(INT, prefer=self.rng.choice(["i", "step", "j"]))
        bound = self.rng.choice([self.int_(1), f"len({self.list_var()})" if self.list_var() else "3",
                                 f"{self.int_(0)}, {self.int_(0)}"])
        with self.nested(f"for {i} in range({bound}):", loop=True):
            self.bind(i, INT)
            self.loop_body(depth_left)

    def st_for_list(self, depth_left):
        lists = [(n, t) for n, t in self.scope.vars.items() if isinstance(t, tuple) and t[0] == "List"]
        dicts = [(n, t) for n, t in self.scope.vars.items() if isinstance(t, tuple) and t[0] == "Dict"]
        if not lists and not dicts:
            return False
        if dicts and (not lists or self.chance(0.3)):
            name, t = self.rng.choice(dicts)
            k, v = self.fresh(t[1], prefer="k"), self.fresh(t[2], prefer="v")
            header = self.rng.choice([f"for {k}, {v} in {name}.items():", f"for {k} in {name}.keys():"])
            with self.nested(header, loop=True):
                self.bind(k, t[1])
                if ".items()" in header:
                    self.bind(v, t[2])
                self.loop_body(depth_left)
            return None
        name, t = self.rng.choice(lists)
        v = self.fresh(t[1], prefer=self.rng.choice(["v", "item", "part", "s"]))
        style = self.rng.choice(["plain", "plain", "enumerate", "zip"])
        if style == "enumerate":
            i = self.fresh(INT, prefer="i")
            header = f"for {i}, {v} in enumerate({name}):"
            binds = {i: INT, v: t[1]}
        elif style == "zip" and len(lists) > 1:
            other, ot = self.rng.choice([p for p in lists if p[0] != name])
            w = self.fresh(ot[1], prefer="w")
            header = f"for {v}, {w} in zip({name}, {other}):"
            binds = {v: t[1], w: ot[1]}
        else:
            header = f"for {v} in {name}:"
            binds = {v: t[1]}
        with self.nested(header, loop=True):
            for bn, bt in binds.items():
                self.bind(bn, bt)
            self.loop_body(depth_left)

    def st_for_modules(self, depth_left):
        m = self.module
        if m.modulelists and self.chance(0.6):
            name = self.rng.choice(m.modulelists)
            h = self.var(T) or "x"
            style = self.rng.choice(["plain", "enumerate", "zip"])
            if style == "enumerate":
                with self.nested(f"for i, layer in enumerate(self.{name}):", loop=True):
                    self.bind("i", INT)
                    self.emit(f"{h} = layer({h})")
                    if self.chance(0.4):
                        with self.nested(f"if i == {self.rng.choice(['0', '1'])}:"):
                            self.emit(f"{h} = {h} * 0.5")
            elif style == "zip" and len(m.modulelists) > 1:
                a, b = self.rng.sample(m.modulelists, 2)
                with self.nested(f"for layer, other in zip(self.{a}, self.{b}):", loop=True):
                    self.emit(f"{h} = other(layer({h}))")
            else:
                with self.nested(f"for layer in self.{name}:", loop=True):
                    self.emit(f"{h} = layer({h})")
            return None
        if m.moduledicts:
            name = self.rng.choice(m.moduledicts)
            h = self.var(T) or "x"
            out = self.fresh(Dict(STR, T), prefer="outputs")
            self.emit(f"{out}: {self.file.ann(Dict(STR, T))} = {{}}")
            with self.nested(f"for key_, head in self.{name}.items():", loop=True):
                self.emit(f"{out}[key_] = head({h})")
            self.bind(out, Dict(STR, T))
            return None
        return False

    def st_while(self, depth_left):
        i = self.fresh(INT, prefer="i")
        self.emit(f"{i} = 0")
        self.bind(i, INT)
        with self.nested(f"while {i} < {self.int_(0)}:", loop=True):
            self.statement(depth_left - 1)
            self.emit(f"{i} += 1")

    def st_append_pattern(self, depth_left):
        elem = self.rng.choice([T, T, T, INT, FLOAT])
        name = self.fresh(List(elem), prefer=self.rng.choice(["outs", "parts", "vals", "acc"]))
        style = self.rng.choice(["annotated", "annotated", "jit_annotate", "tensor_empty"])
        if elem != T and style == "tensor_empty":
            style = "annotated"
        if style == "annotated":
            self.emit(f"{name}: {self.file.ann(List(elem))} = []")
        elif style == "jit_annotate":
            self.emit(f"{name} = torch.jit.annotate({self.file.ann(List(elem))}, [])")
        else:
            self.emit(f"{name} = []")  # an unannotated empty list is a List[Tensor]
        i = self.fresh(INT, prefer="i")
        with self.nested(f"for {i} in range({self.int_(0)}):", loop=True):
            self.bind(i, INT)
            self.bind(name, List(elem))
            self.emit(f"{name}.append({self.expr(elem, 1)})")
        self.bind(name, List(elem))
        if elem == T and self.chance(0.7):
            h = self.var(T) or "x"
            self.emit(f"{h} = {self.rng.choice(['torch.cat', 'torch.stack'])}({name}, dim={self.rng.choice(['0', '1', '-1'])})")

    def st_dict_pattern(self, depth_left):
        val = self.rng.choice([T, T, INT, FLOAT])
        t = Dict(STR, val)
        name = self.fresh(t)
        if self.chance(0.7):
            self.emit(f"{name}: {self.file.ann(t)} = {{}}")
        else:
            self.emit(f"{name} = torch.jit.annotate({self.file.ann(t)}, {{}})")
        self.bind(name, t)
        for key in self.rng.sample(["a", "b", "out", "aux"], self.rng.randint(1, 2)):
            self.emit(f'{name}["{key}"] = {self.expr(val, 1)}')
        if self.chance(0.4):
            v = self.fresh(Optional(val), prefer="got")
            self.emit(f'{v} = {name}.get("a")')
            self.bind(v, Optional(val))

    def st_comprehension(self, depth_left):
        lt = self.list_var()
        main = self.var(T) or "x"
        options = [
            (2, lambda: (List(INT), f"[s * 2 for s in {main}.shape]")),
            (2, lambda: (List(T), f"[{main} * float(i) for i in range({self.int_(0)})]")),
            (1, lambda: (Dict(STR, INT), '{k: len(k) for k in ["a", "bb"]}')),
        ]
        if lt:
            et = self.scope.vars[lt][1]
            if et == T:
                options.append((3, lambda: (List(T), f"[t.sum() for t in {lt}]")))
                options.append((1, lambda: (List(INT), f"[t.size(0) for t in {lt}]")))
            elif et in (INT, FLOAT):
                options.append((3, lambda: (List(et), f"[v + 1 for v in {lt}]")))
        dt = self.var(Dict(STR, T))
        if dt:
            options.append((2, lambda: (Dict(STR, T), f"{{k: v.relu() for k, v in {dt}.items()}}")))
        t, text = self.pick(options)
        self.assign(t, text, annotate=0.2)

    def st_optional(self, depth_left):
        opts = [n for n, t in self.scope.vars.items() if isinstance(t, tuple) and t[0] == "Optional"]
        if not opts:
            return False
        o = self.rng.choice(opts)
        inner = self.scope.vars[o][1]
        h = self.var(T) or "x"
        style = self.rng.choice(["if_not_none", "if_none_assign", "assert", "early", "ternary", "and", "or",
                                 "isinstance", "else_branch"])
        use = (lambda: f"{h} = {h} + {o}") if inner == T else (lambda: f"{h} = {h} * {o}")
        if style == "if_not_none":
            with self.nested(f"if {o} is not None:"):
                self.emit(use())
        elif style == "if_none_assign":
            with self.nested(f"if {o} is None:"):
                self.emit(f"{o} = {self.expr(inner, 1)}")
            self.emit(use())
        elif style == "assert":
            self.emit(f"assert {o} is not None")
            self.emit(use())
        elif style == "early":
            if self.in_loop or self.depth > 0:
                return False
            with self.nested(f"if {o} is None:"):
                self.emit(f"return {self.gen.ret_expr(self)}")
            self.emit(use())
        elif style == "ternary":
            v = self.fresh(inner)
            self.emit(f"{v} = {o} if {o} is not None else {self.expr(inner, 0)}")
            self.bind(v, inner)
        elif style == "and":
            test = f"{o}.dim() > 1" if inner == T else f"{o} > 0"
            with self.nested(f"if {o} is not None and {test}:"):
                self.emit(use())
        elif style == "or":
            test = f"{o}.numel() == 0" if inner == T else f"{o} == 0"
            with self.nested(f"if {o} is None or {test}:"):
                self.emit(f"{h} = {h} * 2")
            with self.nested("else:"):
                self.emit(use())
        elif style == "isinstance":
            name = {T: "torch.Tensor", INT: "int", FLOAT: "float", STR: "str", BOOL: "bool"}.get(inner)
            if name is None:
                return False
            with self.nested(f"if isinstance({o}, {name}):"):
                self.emit(use())
        else:
            with self.nested(f"if {o} is None:"):
                self.emit(f"{h} = {h} * 2")
            with self.nested("else:"):
                self.emit(use())

    def st_unpack(self, depth_left):
        main = self.var(T) or "x"
        options = [
            (2, lambda: ([INT, INT], f"{main}.shape[0], {main}.shape[1]")),
            (2, lambda: ([INT, INT], f"{main}.shape[-2:]")),
            (1, lambda: ([INT, INT, INT], f"{main}.size()")),
            (2, lambda: ([T, T], f"torch.max({main}, dim={self.dim()})")),
            (2, lambda: ([T, T], f"{main}.chunk(2, dim={self.dim()})")),
            (2, lambda: ([T, T], f"{self.tensor(1)}, {self.tensor(1)}")),
            (1, lambda: ([INT, FLOAT], f"({self.int_(1)}, {self.float_(1)})")),
        ]
        tv = [n for n, t in self.scope.vars.items() if isinstance(t, tuple) and t[0] == "Tuple"]
        if tv:
            name = self.rng.choice(tv)
            options.append((3, lambda: (list(self.scope.vars[name][1:]), name)))
        types, text = self.pick(options)
        names = [self.fresh(t) for t in types]
        self.emit(f"{', '.join(names)} = {text}")
        for n, t in zip(names, types):
            self.bind(n, t)

    def st_assert(self, depth_left):
        self.emit(f"assert {self.cond()}" + (f', "{self.rng.choice(["bad shape", "expected 4D input"])}"'
                                            if self.chance(0.5) else ""))

    def exception(self) -> str:
        """An exception class to raise: a builtin one or one the file defines (`class ShapeError(ValueError)`,
        sometimes with its own `__init__`, which torch never compiles: a raise only names the class)."""
        if self.chance(0.3):
            return self.gen.exception_class()
        return self.rng.choice(["ValueError", "RuntimeError", "AssertionError", "NotImplementedError"])

    def st_raise(self, depth_left):
        exc = self.exception()
        msg = self.rng.choice([
            '"unsupported input"', f'f"expected 4 dims, got {{{self.var(T) or "x"}.dim()}}"',
            f'"bad mode: " + {self.str_(0)}', "",
        ])
        with self.nested(f"if {self.cond()}:"):
            self.emit(f"raise {exc}({msg})")

    def st_raise_refine(self, depth_left):
        """An Optional refined by a `raise` in one branch: after `if v is None: raise ...` the value is not None."""
        opts = [n for n, t in self.scope.vars.items() if isinstance(t, tuple) and t[0] == "Optional"
                and t[1] in (T, INT, FLOAT)]
        if not opts:
            return False
        o = self.rng.choice(opts)
        inner = self.scope.vars[o][1]
        h = self.var(T) or "x"
        use = f"{h} = {h} + {o}" if inner == T else f"{h} = {h} * {o}"
        raise_ = f'raise {self.exception()}("{o} is required")'
        style = self.rng.choice(["none_raises", "else_raises", "not_none_then_use"])
        self.gen.file.features.append(f"raise_refine:{style}")
        if style == "none_raises":
            with self.nested(f"if {o} is None:"):
                self.emit(raise_)
            self.emit(use)
        elif style == "else_raises":
            with self.nested(f"if {o} is not None:"):
                self.emit(use)
            with self.nested("else:"):
                self.emit(raise_)
            self.emit(use)  # refined after the `if` too: the `else` always raises
        else:
            with self.nested(f"if {o} is None or {self.cond()}:"):
                self.emit(raise_)
            self.emit(use)  # `or`: None raises; torch refines after the `if` only when the test is just `is None`

    def st_moduledict(self, depth_left):
        """An `nn.ModuleDict` used as TorchScript allows (a literal key, `in` with a literal, `.values()`, `.keys()`,
        `len`) or not (a key from a loop over `.keys()`)."""
        name = self.rng.choice(self.module.moduledicts)
        a = next(a for a in self.module.attrs if a.name == name)
        h = self.var(T) or "x"
        style = self.rng.choice(["contains", "values", "keys", "len", "keys_index"])
        self.gen.file.features.append(f"moduledict:{style}")
        if style == "contains":
            key = self.rng.choice([*a.extra["keys"], "missing"])
            with self.nested(f'if "{key}" in self.{name}:'):
                self.emit(f'{h} = self.{name}["{key}"]({h})' if key != "missing" else f"{h} = {h} + 1")
        elif style == "values":
            with self.nested(f"for head in self.{name}.values():", loop=True):
                self.emit(f"{h} = head({h})")
        elif style == "keys":
            n = self.fresh(INT, prefer="count")
            self.emit(f"{n} = 0")
            with self.nested(f"for key_ in self.{name}.keys():", loop=True):
                self.emit(f"{n} = {n} + len(key_)")
            self.bind(n, INT)
        elif style == "len":
            self.emit(f"{h} = {h} * len(self.{name})")
        else:
            with self.nested(f"for key_ in self.{name}.keys():", loop=True):
                self.emit(f"{h} = self.{name}[key_]({h})")

    def st_flagged_attribute(self, depth_left):
        """An attribute `__init__` sets only when a constructor flag says so (or sets to None/Identity otherwise),
        read in compiled code under a test of the flag (kept as a plain attribute, a `Final`, a `__constants__`
        entry), of the attribute (`is not None`, `hasattr`), or of nothing."""
        m, rng = self.module, self.rng
        flag = self.gen.attr_name(m, ["use_proj", "use_gate", "with_bias", "has_head"])
        attr = self.gen.attr_name(m, ["proj_opt", "gate_opt", "bias_opt", "head_opt"])
        on = rng.random() < 0.5
        value_kind = rng.choice(["module", "module", "float", "tensor"])
        value = {"module": "nn.Linear(4, 4)", "float": "0.5", "tensor": "torch.ones(4)"}[value_kind]
        otherwise = rng.choice(["unset", "unset", "none", "identity"]) if value_kind == "module" else rng.choice(
            ["unset", "none"])
        kept = rng.choice(["attribute", "final", "constants", "not_kept"])
        guard = rng.choice(["flag", "flag", "is_not_none", "hasattr", "none"])
        if kept == "not_kept" and guard == "flag":
            guard = "hasattr"
        if guard == "is_not_none" and otherwise == "identity":
            guard = "flag" if kept != "not_kept" else "none"
        self.gen.file.features.append(f"flagged_attr:{value_kind}:{otherwise}:{kept}:{guard}:{'on' if on else 'off'}")
        m.init_params.append(f"{flag}: bool = {on}")
        if kept != "not_kept":
            m.init_lines.append(f"self.{flag} = {flag}")
            if kept == "final":
                self.gen.file.typing.add("Final")
                m.class_lines.append(f"{flag}: Final[bool]")
            elif kept == "constants":
                m.class_lines.append(f'__constants__ = ["{flag}"]')
        m.init_lines.append(f"if {flag}:")
        m.init_lines.append(f"    self.{attr} = {value}")
        if otherwise != "unset":
            m.init_lines.append("else:")
            m.init_lines.append(f"    self.{attr} = {'None' if otherwise == 'none' else 'nn.Identity()'}")
        m.attrs.append(Attr(attr, "flagged", extra={"usable": False}))
        m.attrs.append(Attr(flag, "flag", BOOL, extra={"usable": False}))
        h = self.var(T) or "x"
        use = f"{h} = self.{attr}({h})" if value_kind == "module" else f"{h} = {h} * self.{attr}"
        test = {"flag": f"self.{flag}", "is_not_none": f"self.{attr} is not None",
                "hasattr": f'hasattr(self, "{attr}")'}.get(guard)
        if test is None:
            self.emit(use)
        else:
            with self.nested(f"if {test}:"):
                self.emit(use)

    def st_print(self, depth_left):
        self.emit(f"print({self.rng.choice([self.var(T) or 'x', self.str_(1), self.int_(1)])}"
                  + (f", {self.str_(0)}" if self.chance(0.3) else "") + ")")

    def st_with(self, depth_left):
        with self.nested(self.rng.choice(["with torch.no_grad():"] * 5 + ["with torch.enable_grad():"])):
            self.statement(depth_left - 1)

    def st_del(self, depth_left):
        d = self.var(Dict(STR, T)) or self.var(Dict(STR, INT))
        lv = self.var(List(INT)) or self.var(List(T))
        if d and self.chance(0.5):
            key = self.fresh(STR, prefer="key")
            self.emit(f'{key} = "a"')
            with self.nested(f"if {key} in {d}:"):
                self.emit(f"del {d}[{key}]")
            self.bind(key, STR)
        elif lv:
            with self.nested(f"if len({lv}) > 0:"):
                self.emit(f"del {lv}[0]")
        else:
            tmp = self.assign(T, self.tensor(1), prefer="tmp")
            h = self.var(T)
            if h and h != tmp:
                self.emit(f"{h} = {h} + {tmp}")
            self.emit(f"del {tmp}")
            self.scope.vars.pop(tmp, None)

    def st_early_return(self, depth_left):
        if self.in_loop and self.chance(0.5):
            return False
        with self.nested(f"if {self.cond()}:"):
            self.emit(f"return {self.gen.ret_expr(self)}")

    def st_string(self, depth_left):
        s = self.assign(STR, self.str_(2))
        if self.chance(0.4):
            with self.nested(f'if {s} == "{self.rng.choice(["mean", "sum", "a_1"])}":'):
                self.statement(0)

    def st_math(self, depth_left):
        main = self.var(T) or "x"
        f = self.assign(FLOAT, self.math(f"sqrt(float({main}.size(-1)))") if self.chance(0.6)
                        else self.math(f"log({self.float_(1)} + 1.0)"))
        self.emit(f"{main} = {main} / {f}")

    def st_list_methods(self, depth_left):
        v = self.var(List(INT))
        if v is None:
            v = self.assign(List(INT), f"[{self.int_(0)}, {self.int_(0)}]")
        self.emit(self.rng.choice([
            f"{v}.append({self.int_(1)})", f"{v}.insert(0, {self.int_(0)})", f"{v}.extend([{self.int_(0)}])",
            f"{v}.reverse()", f"{v}.sort()", f"{v} = {v} + {v}", f"{v}.clear()",
        ]))

    def st_scripting_branch(self, depth_left):
        main = self.var(T) or "x"
        with self.nested(self.rng.choice(["if torch.jit.is_scripting():", "if not torch.jit.is_tracing():"])):
            self.emit(f"{main} = {main} + 1")
        with self.nested("else:"):
            self.emit(f"{main} = {main} - 1")

    def st_call(self, depth_left):
        """A call of one of the program's functions or the module's methods, its result kept."""
        returns = sorted({sig[1] for sig in self.gen.callables(self.module).values()}, key=str)
        if not returns:
            return False
        t = self.rng.choice(returns)
        call = self.helper_call(t, 2)
        if call is None:
            return False
        target = self.var(t) if t == T and self.chance(0.7) else None
        if target:
            self.emit(f"{target} = {call}")
            self.main = target
        else:
            self.assign(t, call)

    def st_none_attribute(self, depth_left):
        """An attribute that may be None, tested before use (torch drops the branch when it is None)."""
        found = [a for a in self.module.attrs if a.kind in ("none", "none_or_tensor")]
        if not found:
            return False
        a = self.rng.choice(found)
        h = self.var(T) or "x"
        use = f"self.{a.name}({h})" if a.kind == "none" and self.chance(0.5) else f"{h} + self.{a.name}"
        style = self.rng.choice(["is_not_none", "is_none_else", "ternary"])
        if style == "is_not_none":
            with self.nested(f"if self.{a.name} is not None:"):
                self.emit(f"{h} = {use}")
        elif style == "is_none_else":
            with self.nested(f"if self.{a.name} is None:"):
                self.emit(f"{h} = {h} * 1.0")
            with self.nested("else:"):
                self.emit(f"{h} = {use}")
        else:
            self.emit(f"{h} = {h} if self.{a.name} is None else {use}")

    def st_hasattr(self, depth_left):
        """`hasattr(self, ...)` on an attribute that exists or not: torch answers it while compiling."""
        modules = [a.name for a in self.module.attrs if a.kind == "module"]
        name = self.rng.choice(modules) if modules and self.chance(0.5) else self.rng.choice(["proj_extra", "head2"])
        h = self.var(T) or "x"
        with self.nested(f'if hasattr(self, "{name}"):'):
            self.emit(f"{h} = self.{name}({h})")

    def st_union(self, depth_left):
        """A Union refined by `isinstance` (both branches, a tuple of types, `torch.jit.isinstance`, or an early
        return that leaves the other member after the `if`)."""
        unions = [n for n, t in self.scope.vars.items() if isinstance(t, tuple) and t[0] == "Union"]
        if not unions:
            return False
        u = self.rng.choice(unions)
        members = self.scope.vars[u][1:]
        h = self.var(T) or "x"
        spelled = {INT: "int", FLOAT: "float", T: "torch.Tensor", List(T): "list"}

        def use(member) -> str:
            if member == List(T):
                return f"{h} = {h} + {u}[0]"
            return f"{h} = {h} * {u}" if member in (INT, FLOAT) else f"{h} = {h} + {u}"

        first = self.rng.choice(members)
        rest = [m for m in members if m != first]
        style = self.rng.choice(["else", "else", "tuple", "jit_isinstance", "early"])
        if style == "tuple" and set(members) <= {INT, FLOAT}:
            self.gen.file.features.append("union:tuple")
            with self.nested(f"if isinstance({u}, (int, float)):"):
                self.emit(use(FLOAT))
            return None
        if style == "early" and not self.in_loop and self.depth == 0 and len(rest) == 1:
            self.gen.file.features.append("union:early")
            with self.nested(f"if isinstance({u}, {spelled[first]}):"):
                self.emit(use(first))
                self.emit(f"return {self.gen.ret_expr(self)}")
            self.emit(use(rest[0]))
            return None
        test = f"isinstance({u}, {spelled[first]})"
        if style == "jit_isinstance":
            self.gen.file.features.append("union:jit_isinstance")
            test = f"torch.jit.isinstance({u}, {self.file.ann(first)})"
        else:
            self.gen.file.features.append("union:else")
        with self.nested(f"if {test}:"):
            self.emit(use(first))
        with self.nested("else:"):
            self.emit(use(rest[0]) if len(rest) == 1 else f"{h} = {h} + 1")

    def st_attr_update(self, depth_left):
        ints = [a for a in self.module.attrs if a.kind == "value" and a.type in (INT, FLOAT)
                and a.extra.get("usable", True)]
        if not ints:
            return False
        a = self.rng.choice(ints)
        self.emit(f"self.{a.name} = self.{a.name} + {'1' if a.type == INT else '1.0'}")


# -- modules ------------------------------------------------------------------------------------------------------------
class ModuleCtx:
    """A module class being built: its attributes (set in `__init__`), class-level lines, methods."""

    def __init__(self, name: str, base: str = "nn.Module"):
        self.name = name
        self.base = base
        self.attrs: list[Attr] = []
        self.init_lines: list[str] = []
        self.init_params: list[str] = []
        self.class_lines: list[str] = []
        self.methods: list[Func] = []
        self.method_sigs: dict[str, tuple[list, object]] = {}  # callable from compiled code

    @property
    def modulelists(self) -> list[str]:
        return [a.name for a in self.attrs if a.kind == "modulelist"]

    @property
    def moduledicts(self) -> list[str]:
        return [a.name for a in self.attrs if a.kind == "moduledict"]

    def has(self, name: str) -> bool:
        return any(a.name == name for a in self.attrs)

    def render(self, file: File) -> list[str]:
        lines = [f"class {self.name}({self.base}):"]
        class_lines = [line for line in self.class_lines if not line.startswith("__constants__")]
        constants = [name for line in self.class_lines if line.startswith("__constants__")
                     for name in ast.literal_eval(line.partition("=")[2].strip())]
        if constants:  # one `__constants__` list, whatever added a name to it
            class_lines.insert(0, f"__constants__ = {constants!r}".replace("'", '"'))
        lines += [f"    {line}" for line in class_lines]
        if class_lines:
            lines.append("")
        params = ", ".join(["self", *self.init_params])
        lines.append(f"    def __init__({params}):")
        lines.append("        super().__init__()" if self.base != "object" else "        pass")
        lines += [f"        {line}" for line in self.init_lines]
        for method in self.methods:
            lines.append("")
            lines += method.render(1)
        return lines


class Generator:
    """One program per (seed, index)."""

    MISTAKES = {
        # name: weight
        "retype_local": 5, "retype_none": 2, "one_branch_only": 4, "optional_unchecked": 5,
        "optional_attr_refine": 2, "empty_list_wrong_elem": 4, "empty_dict_wrong_value": 3, "mixed_list": 2,
        "list_annotation_mismatch": 2, "modulelist_var_index": 4, "moduledict_var_key": 2, "try_except": 3,
        "lambda": 2, "generator_expr": 2, "kwargs": 2, "star_args": 2, "star_call": 3, "star_unpack": 2,
        "unpack_arity": 3, "helper_missing_arg": 2, "helper_unannotated_int": 4, "unannotated_float_default": 4,
        "none_default_not_optional": 3, "mutable_default": 2, "attr_unsupported_used": 5,
        "attr_only_conditional": 2, "global_unsupported_used": 4, "global_statement": 1, "numpy_in_script": 3,
        "return_type_mismatch": 3, "return_none_branch": 3, "float_size": 5, "numpy_keyword": 3, "cat_no_list": 2,
        "full_int_size": 2, "interpolate_int_scale": 2, "item_annotated_float": 2, "tolist_unannotated": 2,
        "round_to_int": 1, "range_float": 2, "module_in_forward": 2, "nested_def": 1, "fstring_spec": 2,
        "percent_format": 1, "print_keyword": 1, "isinstance_ndarray": 1, "final_assign": 2, "attr_assign_retype": 2,
        "class_annotation_mismatch": 2, "ignored_unannotated_int": 3, "export_with_error": 2,
        "property_with_error": 2, "type_comment_arity": 1, "dict_mixed_values": 2, "str_plus_int": 2,
        "tuple_var_index": 2, "union_unrefined": 2, "optional_int_arith": 2, "super_forward": 1,
        "classmethod_call": 1, "walrus": 1, "sum_keepdims": 1, "view_tuple_of_float": 1, "python_list_of_modules": 2,
        "attr_none_used": 2, "len_of_int": 1, "dict_int_key_str_lookup": 1, "chained_bad_min": 1,
        "opt_param_no_default_none": 1, "local_type_comment": 1,
        # frontend error sites the mistakes above did not reach (each also writes look-alikes torch accepts)
        "branch_types_differ": 2, "ifexp_types_differ": 2, "tuple_index_range": 1, "cond_not_bool": 2,
        "del_target": 1, "slice_assign": 1, "builtin_arity": 2, "loop_else": 1, "set_comprehension": 1,
        "import_in_body": 1, "comprehension_shape": 1, "annotation_without_value": 1, "dict_expansion": 1,
        "keyword_expansion": 1, "tensor_index_kind": 2, "container_multi_index": 1, "attr_name_not_literal": 1,
        "annotated_after_bound": 1, "iterate_scalar": 1, "subscript_scalar": 1, "int_literal_overflow": 1,
        "unary_plus": 1, "augmented_matmul": 1, "reserved_name": 1, "starred_target_alone": 1,
        "with_non_object": 1, "raise_non_exception": 1,
    }

    def __init__(self, seed: int, index: int):
        self.seed, self.index = seed, index
        self.rng = random.Random(f"{seed}:{index}")
        self.file = File(self.rng)
        self.building: set[str] = set()  # helper module classes being built

    # -- what compiled code can call -------------------------------------------------------------------------------
    def callables(self, module: ModuleCtx | None) -> dict:
        found = dict(self.file.helper_sigs)
        if module is not None:
            found.update({f"self.{k}": v for k, v in module.method_sigs.items()})
        return found

    def ret_expr(self, b: Builder) -> str:
        return b.expr(b.func.ret, 1)

    # -- the program -----------------------------------------------------------------------------------------------
    def program(self) -> Program:
        rng = self.rng
        kind = "module" if rng.random() < 0.72 else "function"
        n_mistakes = rng.choices([0, 1, 2], [0.62, 0.33, 0.05])[0]
        mistakes: list[str] = []
        while len(mistakes) < n_mistakes:
            name = self.choose_mistake(kind)
            if name not in mistakes:
                mistakes.append(name)
        self.file.features.append(kind)
        self.add_globals()
        self.add_helpers()
        if kind == "module":
            self.module_program(mistakes)
        else:
            self.function_program(mistakes)
        source = self.render(kind)
        return Program(self.index, self.seed, source, kind, self.file.features)

    def choose_mistake(self, kind: str) -> str:
        names = [n for n, w in self.MISTAKES.items() if w > 0]
        weights = [self.MISTAKES[n] for n in names]
        module_only = {"optional_attr_refine", "modulelist_var_index", "moduledict_var_key", "attr_unsupported_used",
                       "attr_only_conditional", "final_assign", "attr_assign_retype", "class_annotation_mismatch",
                       "ignored_unannotated_int", "export_with_error", "property_with_error", "module_in_forward",
                       "super_forward", "classmethod_call", "python_list_of_modules", "attr_none_used",
                       "attr_name_not_literal"}
        while True:
            name = self.rng.choices(names, weights)[0]
            if kind == "module" or name not in module_only:
                return name

    def add_globals(self) -> None:
        rng, f = self.rng, self.file
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
            kind = rng.choice(["int", "float", "bool", "str", "tuple", "none", "list", "dict", "set", "tensor",
                               "module", "lambda", "ndarray"])
            if kind == "int":
                name = f.fresh_global(rng.choice(["NUM_HEADS", "DEPTH", "SIZE", "CHANNELS"]))
                f.globals.append(f"{name} = {rng.choice([2, 3, 4, 8])}")
                f.global_types[name] = INT
            elif kind == "float":
                name = f.fresh_global(rng.choice(["EPS", "SCALE", "MOMENTUM", "TEMPERATURE"]))
                f.globals.append(f"{name} = {rng.choice(['1e-5', '0.5', '2.0', '0.1'])}")
                f.global_types[name] = FLOAT
            elif kind == "bool":
                name = f.fresh_global(rng.choice(["USE_BIAS", "DEBUG", "FUSED"]))
                f.globals.append(f"{name} = {rng.choice(['True', 'False'])}")
                f.global_types[name] = BOOL
            elif kind == "str":
                name = f.fresh_global(rng.choice(["MODE", "PREFIX", "REDUCTION"]))
                f.globals.append(f'{name} = "{rng.choice(["mean", "sum", "layer"])}"')
                f.global_types[name] = STR
            elif kind == "tuple":
                name = f.fresh_global(rng.choice(["KERNEL", "STRIDES", "PADS"]))
                f.globals.append(f"{name} = ({rng.choice([1, 3])}, {rng.choice([1, 3])})")
                f.global_types[name] = Tuple(INT, INT)
            elif kind == "none":
                name = f.fresh_global(rng.choice(["DEFAULT_MASK", "CACHE"]))
                f.globals.append(f"{name} = None")
                f.unsupported_globals[name] = "None"
            elif kind == "list":
                name = f.fresh_global(rng.choice(["SIZES", "DIMS", "LAYERS"]))
                f.globals.append(f"{name} = [{rng.choice([1, 2])}, {rng.choice([3, 4])}]")
                f.unsupported_globals[name] = "list"
            elif kind == "dict":
                name = f.fresh_global(rng.choice(["TABLE", "CONFIG", "WIDTHS"]))
                f.globals.append(f'{name} = {{"a": 1, "b": 2}}')
                f.unsupported_globals[name] = "dict"
            elif kind == "set":
                name = f.fresh_global(rng.choice(["MODES", "VALID"]))
                f.globals.append(f'{name} = {{"mean", "sum"}}')
                f.unsupported_globals[name] = "set"
            elif kind == "tensor":
                name = f.fresh_global(rng.choice(["WEIGHTS", "OFFSETS"]))
                f.globals.append(f"{name} = torch.ones(4)")
                f.unsupported_globals[name] = "tensor"
            elif kind == "module":
                name = f.fresh_global(rng.choice(["ACT", "NORM"]))
                f.uses("nn")
                f.globals.append(f"{name} = nn.{rng.choice(['ReLU()', 'Identity()', 'GELU()'])}")
                f.unsupported_globals[name] = "module"
            elif kind == "lambda":
                name = f.fresh_global(rng.choice(["act_fn", "square"]))
                f.globals.append(f"{name} = lambda t: t * t")
                f.unsupported_globals[name] = "lambda"
            else:
                name = f.fresh_global(rng.choice(["MEAN", "STD"]))
                f.uses("np")
                f.globals.append(f"{name} = np.array([0.5, 0.5])")
                f.unsupported_globals[name] = "ndarray"

    def add_helpers(self) -> None:
        for _ in range(self.rng.choice([0, 0, 1, 1, 2])):
            if self.rng.random() < 0.15:
                self.eager_helper()
            else:
                self.helper()

    def helper(self, name: str | None = None, params_spec=None, ret=None, decorate: str | None = None,
               mistakes=(), callable_=True) -> Func:
        rng, f = self.rng, self.file
        name = name or self.unique_helper(rng.choice(["scale_add", "normalize", "combine", "activate", "project",
                                                         "mask_fill", "pool", "gate"]))
        if params_spec is None:
            params_spec = [("t", T, False, True)]
            for _ in range(rng.choice([0, 1, 1, 2])):
                pt = rng.choice([T, INT, FLOAT, BOOL, Optional(T), List(INT)])
                pname = rng.choice({T: ["other", "u"], INT: ["n", "dim"], FLOAT: ["alpha", "eps"],
                                    BOOL: ["flag"], Optional(T): ["mask"], List(INT): ["sizes"]}[pt])
                if any(p[0] == pname for p in params_spec):
                    continue
                default = pt == Optional(T) or rng.random() < (0.05 if pt == List(INT) else 0.3)
                params_spec.append((pname, pt, default, True))
        ret = ret or rng.choice([T, T, T, INT, FLOAT])
        func = Func(name, ret=ret)
        scope = {}
        defaulted = False
        for pname, pt, default, annotated in params_spec:
            defaulted = defaulted or default
            default = default or defaulted  # Python: no non-default after a default
            text = f"{pname}: {f.ann(pt)}" if annotated and pt != T or (annotated and rng.random() < 0.5) else pname
            if default:
                text += " = " + self.default_for(pt)
            func.params.append(text)
            scope[pname] = pt
        if rng.random() < 0.6 or ret != T:
            func.ret_annotation = f.ann(ret)
        if decorate:
            func.decorators.append(decorate)
        b = Builder(self, func, scope, None)
        b.statements(rng.randint(0, 3), list(mistakes))
        b.emit(f"return {b.expr(ret, 1)}")
        f.helpers.append(func)
        if callable_:
            f.helper_sigs[name] = ([(p[0], p[1], p[2]) for p in params_spec], ret)
        f.features.append("helper")
        return func

    def exception_class(self) -> str:
        """The file's own exception class (defined once): derived from a builtin one, sometimes with an `__init__`
        that calls `super().__init__` (torch does not compile the class: a `raise` names it)."""
        f = self.file
        if f.exception is None:
            name = self.rng.choice(["ShapeError", "ConfigError", "ModelError"])
            base = self.rng.choice(["Exception", "ValueError", "RuntimeError"])
            style = self.rng.choice(["pass", "docstring", "init"])
            lines = [f"class {name}({base}):"]
            if style == "pass":
                lines.append("    pass")
            elif style == "docstring":
                lines.append('    """Raised when the input does not fit the model."""')
            else:
                lines += ["    def __init__(self, message: str):", "        super().__init__(message)",
                          "        self.message = message"]
            f.classes.append(lines)
            f.exception = name
            f.features.append(f"exception_class:{style}")
        return f.exception

    def unique_helper(self, base: str) -> str:
        taken = {h.name for h in self.file.helpers}
        name, n = base, 1
        while name in taken:
            name = f"{base}{n}"
            n += 1
        return name

    def default_for(self, t) -> str:
        return {T: "None", INT: str(self.rng.choice([1, 2, 0])), FLOAT: self.rng.choice(["1.0", "0.5", "1e-5"]),
                BOOL: self.rng.choice(["True", "False"]), STR: '"mean"'}.get(t, "None") if not (
            isinstance(t, tuple) and t[0] == "Tuple") else "(1, 1)"

    # -- module programs ----------------------------------------------------------------------------------------------
    def add_attrs(self, m: ModuleCtx, count: int, nested: bool = True) -> None:
        """`count` attributes; `nested=False` for a helper module class (no helper module inside it)."""
        rng, f = self.rng, self.file
        f.uses("nn")
        for _ in range(count):
            kind = rng.choice(["int", "int", "float", "float", "bool", "str", "list_int", "dict", "tuple", "none",
                               "tensor", "buffer", "param", "linear", "linear", "conv", "act", "norm", "dropout",
                               "modulelist", "modulelist", "moduledict", "sequential", "final", "class_annotated",
                               "constants", "block", "unsupported", "empty_list_annotated", "opt_tensor"])
            if kind == "block" and not nested:
                kind = "linear"
            self.attr(m, kind)

    def attr_name(self, m: ModuleCtx, pool: list[str]) -> str:
        base = self.rng.choice(pool)
        name, n = base, 1
        while m.has(name):
            name = f"{base}{n}"
            n += 1
        return name

    def attr(self, m: ModuleCtx, kind: str) -> Attr | None:
        rng, f = self.rng, self.file
        ch = rng.choice([4, 8, 16])
        if kind == "int":
            name = self.attr_name(m, ["num_layers", "hidden", "groups", "k", "stride_"])
            value = rng.choice([1, 2, 4, 8])
            if rng.random() < 0.3:
                m.init_params.append(f"{name}: int = {value}")
                m.init_lines.append(f"self.{name} = {name}")
            else:
                m.init_lines.append(f"self.{name} = {value}")
            a = Attr(name, "value", INT)
        elif kind == "float":
            name = self.attr_name(m, ["scale", "eps", "alpha", "dropout_p", "temperature"])
            m.init_lines.append(f"self.{name} = {rng.choice(['0.5', '1e-5', '1.0', '2.0'])}")
            a = Attr(name, "value", FLOAT)
        elif kind == "bool":
            name = self.attr_name(m, ["use_skip", "normalize", "residual"])
            m.init_lines.append(f"self.{name} = {rng.choice(['True', 'False'])}")
            a = Attr(name, "value", BOOL)
        elif kind == "str":
            name = self.attr_name(m, ["mode", "reduction", "prefix"])
            m.init_lines.append(f'self.{name} = "{rng.choice(["mean", "sum", "nearest"])}"')
            a = Attr(name, "value", STR)
        elif kind == "list_int":
            name = self.attr_name(m, ["sizes", "dims", "kernel_sizes"])
            m.init_lines.append(f"self.{name} = [{rng.choice([1, 2])}, {rng.choice([3, 4])}]")
            a = Attr(name, "value", List(INT))
        elif kind == "dict":
            name = self.attr_name(m, ["widths", "index"])
            m.init_lines.append(f'self.{name} = {{"a": 1, "b": 2}}')
            a = Attr(name, "value", Dict(STR, INT))
        elif kind == "tuple":
            name = self.attr_name(m, ["kernel", "pad", "size"])
            m.init_lines.append(f"self.{name} = ({rng.choice([1, 3])}, {rng.choice([1, 3])})")
            a = Attr(name, "value", Tuple(INT, INT))
        elif kind == "none":
            name = self.attr_name(m, ["bias", "proj", "downsample", "cache"])
            m.init_lines.append(f"self.{name} = None")
            a = Attr(name, "none")
            # A None attribute: compiled code may test it, and torch drops the branch that would use it.
            a.extra["usable"] = False
        elif kind == "tensor":
            name = self.attr_name(m, ["weight", "offset", "table"])
            m.init_lines.append(f"self.{name} = torch.ones({ch})")
            a = Attr(name, "value", T)
        elif kind == "buffer":
            name = self.attr_name(m, ["running_mean", "mask", "pos"])
            m.init_lines.append(f'self.register_buffer("{name}", torch.zeros({ch}))')
            a = Attr(name, "value", T)
        elif kind == "param":
            name = self.attr_name(m, ["gain", "weight", "bias_"])
            m.init_lines.append(f"self.{name} = nn.Parameter(torch.ones({ch}))")
            a = Attr(name, "value", T)
        elif kind in ("linear", "conv", "act", "norm", "dropout"):
            name = self.attr_name(m, {"linear": ["proj", "fc", "head", "lin"], "conv": ["conv", "stem"],
                                      "act": ["act", "relu"], "norm": ["norm", "ln", "bn"],
                                      "dropout": ["drop", "dropout"]}[kind])
            value = {"linear": f"nn.Linear({ch}, {ch})", "conv": f"nn.Conv2d({ch}, {ch}, 3, padding=1)",
                     "act": rng.choice(["nn.ReLU()", "nn.GELU()", "nn.SiLU()", "nn.Identity()"]),
                     "norm": rng.choice([f"nn.LayerNorm({ch})", f"nn.BatchNorm2d({ch})", f"nn.GroupNorm(2, {ch})"]),
                     "dropout": "nn.Dropout(0.1)"}[kind]
            m.init_lines.append(f"self.{name} = {value}")
            a = Attr(name, "module")
        elif kind == "modulelist":
            name = self.attr_name(m, ["layers", "blocks", "stages"])
            n = rng.choice([2, 3])
            style = rng.choice(["comp", "literal", "append"])
            finished = [c for c in self.file.block_classes if c not in self.building]
            inner = f"nn.Linear({ch}, {ch})" if not finished or rng.random() < 0.5 else f"{rng.choice(finished)}()"
            if style == "comp":
                m.init_lines.append(f"self.{name} = nn.ModuleList([{inner} for _ in range({n})])")
            elif style == "literal":
                m.init_lines.append(f"self.{name} = nn.ModuleList([{', '.join([inner] * n)}])")
            else:
                m.init_lines.append(f"self.{name} = nn.ModuleList()")
                m.init_lines.append(f"for _ in range({n}):")
                m.init_lines.append(f"    self.{name}.append({inner})")
            a = Attr(name, "modulelist")
        elif kind == "moduledict":
            name = self.attr_name(m, ["heads", "branches"])
            keys = rng.sample(["a", "b", "cls", "reg"], 2)
            m.init_lines.append(f"self.{name} = nn.ModuleDict({{{', '.join(f'{k!r}: nn.Linear({ch}, {ch})' for k in keys)}}})".replace("'", '"'))
            a = Attr(name, "moduledict", extra={"keys": keys})
        elif kind == "sequential":
            name = self.attr_name(m, ["mlp", "body", "seq"])
            m.init_lines.append(f"self.{name} = nn.Sequential(nn.Linear({ch}, {ch}), nn.ReLU())")
            a = Attr(name, "sequential")
        elif kind == "final":
            f.typing.add("Final")
            t = rng.choice([INT, BOOL, FLOAT])
            name = self.attr_name(m, ["depth", "use_act", "factor_"] if t != BOOL else ["use_act", "fused"])
            m.class_lines.append(f"{name}: Final[{t}]")
            m.init_lines.append(f"self.{name} = {self.default_for(t)}")
            a = Attr(name, "final", t)
        elif kind == "class_annotated":
            t = rng.choice([INT, FLOAT, Optional(T), List(INT)])
            name = self.attr_name(m, ["count", "ratio", "state", "shape_"])
            m.class_lines.append(f"{name}: {f.ann(t)}")
            value = {INT: "3", FLOAT: "0.25", List(INT): "[]"}.get(t, rng.choice(["None", f"torch.zeros({ch})"]))
            m.init_lines.append(f"self.{name} = {value}")
            a = Attr(name, "value", t)
        elif kind == "constants":
            name = self.attr_name(m, ["mode_", "kind"])
            m.class_lines.append(f'__constants__ = ["{name}"]')
            m.init_lines.append(f'self.{name} = "{rng.choice(["a", "b"])}"')
            a = Attr(name, "value", STR)
        elif kind == "block":
            block = self.block_class()
            name = self.attr_name(m, ["block", "inner", "sub"])
            m.init_lines.append(f"self.{name} = {block}()")
            a = Attr(name, "module")
        elif kind == "empty_list_annotated":
            name = self.attr_name(m, ["history", "extra_sizes"])
            m.class_lines.append(f"{name}: {f.ann(List(INT))}")
            m.init_lines.append(f"self.{name} = []")
            a = Attr(name, "value", List(INT))
        elif kind == "opt_tensor":
            name = self.attr_name(m, ["bias", "shift"])
            if rng.random() < 0.5:
                m.init_lines.append(f"self.{name} = nn.Parameter(torch.zeros({ch})) if {rng.choice(['True', 'False'])} else None")
            else:
                m.init_lines.append(f"self.{name} = None")
            a = Attr(name, "none_or_tensor")
        else:  # a Python value TorchScript cannot hold: unused here, only kept on the module
            name = self.attr_name(m, ["cfg", "names", "callback", "lookup", "stats_np"])
            value = rng.choice(['{"a", "b"}', "lambda t: t", "object()", "np.zeros(3)", '{1: "a", "b": 2}',
                                "[nn.Linear(4, 4)]", "print"])
            if "np." in value:
                f.uses("np")
            m.init_lines.append(f"self.{name} = {value}")
            a = Attr(name, "unsupported", extra={"value": value})
        m.attrs.append(a)
        f.features.append(f"attr:{kind}")
        return a

    def block_class(self) -> str:
        """A small helper module class the root uses as a submodule."""
        f = self.file
        name = f"Block{len(f.block_classes) + 1}" if f.block_classes else "Block"
        f.block_classes.append(name)
        self.building.add(name)  # a class cannot hold instances of itself
        m = ModuleCtx(name)
        self.add_attrs(m, self.rng.randint(1, 2), nested=False)
        fwd = Func("forward", ret=T, is_method=True)
        fwd.params.append("x" if self.rng.random() < 0.5 else f"x: {f.ann(T)}")
        b = Builder(self, fwd, {"x": T}, m)
        b.statements(self.rng.randint(1, 2), [])
        b.emit(f"return {b.var(T) or 'x'}")
        m.methods.append(fwd)
        f.classes.append(m.render(f))
        self.building.discard(name)
        f.features.append("block_class")
        return name

    def module_program(self, mistakes: list[str]) -> None:
        rng, f = self.rng, self.file
        f.uses("nn")
        base = "nn.Module"
        if rng.random() < 0.08:
            base = self.base_class()
        m = ModuleCtx("Model", base)
        self.add_attrs(m, rng.randint(1, 5))
        # methods the forward may call
        for _ in range(rng.choice([0, 0, 1, 2])):
            if rng.random() < 0.25:
                self.eager_method(m)
            else:
                self.method(m)
        for _ in range(rng.choice([0, 0, 0, 1])):
            self.unused_method(m)
        fwd = self.signature(Func("forward", is_method=True), mistakes)
        self.forward_body(fwd, m, mistakes)
        m.methods.append(fwd)
        self.root_class = m

    def base_class(self) -> str:
        f = self.file
        b = ModuleCtx("Base")
        b.init_lines.append("self.base_scale = 2.0")
        helper = Func("shared", params=["t"], ret=T, is_method=True, lines=[(0, "return t * self.base_scale")])
        b.methods.append(helper)
        f.classes.append(b.render(f))
        f.features.append("inherits")
        self.base_methods = True
        return "Base"

    def method(self, m: ModuleCtx, decorators=(), mistakes=(), name=None, callable_=True) -> Func:
        rng, f = self.rng, self.file
        name = name or self.attr_name(m, ["_helper", "compute", "_project", "_step", "merge"])
        while any(x.name == name for x in m.methods):
            name += "_"
        ret = rng.choice([T, T, INT, FLOAT])
        func = Func(name, ret=ret, is_method=True, decorators=list(decorators))
        params = [("t", T)]
        if rng.random() < 0.5:
            params.append((rng.choice(["k", "n"]), INT))
        scope = {}
        for pn, pt in params:
            func.params.append(f"{pn}: {f.ann(pt)}" if pt != T or rng.random() < 0.5 else pn)
            scope[pn] = pt
        if rng.random() < 0.7 or ret != T:
            func.ret_annotation = f.ann(ret)
        b = Builder(self, func, scope, m)
        b.statements(rng.randint(0, 2), list(mistakes))
        b.emit(f"return {b.expr(ret, 1)}")
        m.methods.append(func)
        if callable_:
            m.method_sigs[name] = ([(pn, pt, False) for pn, pt in params], ret)
        f.features.append("method" if not decorators else f"method:{decorators[0]}")
        return func

    EAGER_BODIES = {
        T: ["return torch.from_numpy(t.detach().numpy() * 2)",
            "try:\n    return t.relu()\nexcept RuntimeError:\n    return t",
            "vals = [v for v in range(3) if v]\nreturn t * len(vals)"],
        INT: ["return int(np.prod(t.shape))", "return len([v for v in t.shape if v > 1])"],
        FLOAT: ["return float(np.mean(t.detach().numpy()))", "return sum(float(v) for v in t.shape)"],
    }

    def eager_body(self, ret) -> list[tuple[int, str]]:
        text = self.rng.choice(self.EAGER_BODIES[ret])
        if "np." in text:
            self.file.uses("np")
        return [(1, line[4:]) if line.startswith("    ") else (0, line) for line in text.split("\n")]

    def eager_method(self, m: ModuleCtx) -> None:
        """A method forward calls whose body is eager Python: `@torch.jit.ignore` or `@torch.jit.unused`, typed."""
        rng, f = self.rng, self.file
        name = self.attr_name(m, ["_to_host", "_py_stats", "_eager_op"])
        ret = rng.choice([T, T, INT, FLOAT])
        style = rng.choice(["ignore", "ignore", "unused"])
        func = Func(name, params=[f"t: {f.ann(T)}"], ret=ret, ret_annotation=f.ann(ret), is_method=True,
                    decorators=[f"@torch.jit.{style}"], lines=self.eager_body(ret))
        m.methods.append(func)
        m.method_sigs[name] = ([("t", T, False)], ret)
        f.features.append(f"eager_method:{style}")

    def eager_helper(self) -> None:
        """A free function compiled code calls, left to Python with `@torch.jit.ignore`."""
        f = self.file
        ret = self.rng.choice([T, INT, FLOAT])
        name = self.unique_helper(self.rng.choice(["host_op", "py_reduce"]))
        f.helpers.append(Func(name, params=[f"t: {f.ann(T)}"], ret=ret, ret_annotation=f.ann(ret),
                              decorators=["@torch.jit.ignore"], lines=self.eager_body(ret)))
        f.helper_sigs[name] = ([("t", T, False)], ret)
        f.features.append("eager_helper")

    def unused_method(self, m: ModuleCtx) -> None:
        """A method forward never calls: compiled only if exported; ignored/unused bodies hold eager code."""
        rng, f = self.rng, self.file
        style = rng.choice(["plain", "ignore", "unused", "export"])
        name = self.attr_name(m, ["debug", "extra_repr_", "to_numpy", "stats"])
        if style == "export":
            self.method(m, decorators=["@torch.jit.export"], name=name, callable_=False)
            return
        body_text = rng.choice([
            "return t.detach().numpy()", "try:\n    return t.sum()\nexcept Exception:\n    return None",
            "print(f\"{t.shape!r}\")\nreturn [v for v in range(3) if v]", "return {k: v for k, v in vars(self).items()}",
        ])
        func = Func(name, params=["t"], is_method=True, ret=None)
        if style in ("ignore", "unused"):
            func.decorators.append(f"@torch.jit.{style}")
        func.lines = [(0, line) for line in body_text.split("\n")]
        # re-indent the `try` form
        fixed = []
        for depth, line in func.lines:
            fixed.append((1, line[4:]) if line.startswith("    ") else (0, line))
        func.lines = fixed
        m.methods.append(func)
        f.features.append(f"unused_method:{style}")

    SIGNATURE_MISTAKES = {"unannotated_float_default", "none_default_not_optional", "mutable_default", "kwargs",
                          "opt_param_no_default_none", "union_unrefined", "type_comment_arity"}

    def signature(self, func: Func, mistakes: list[str]) -> Func:
        """Parameters of the root: `x` first, then a few typed ones; annotations or, sometimes, a type comment."""
        rng, f = self.rng, self.file
        func.scope = {"x": T}
        params = [("x", T, None, rng.random() < 0.5)]  # name, type, default, annotated
        defaulted = False
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
            kind = rng.choice([INT, FLOAT, BOOL, STR, Optional(T), Optional(T), Optional(INT), List(INT),
                               Tuple(INT, INT), T, Dict(STR, T),
                               rng.choice([Union(INT, T), Union(INT, FLOAT), Union(T, List(T))])
                               if rng.random() < 0.3 else INT])
            container = isinstance(kind, tuple) and kind[0] in ("List", "Dict", "Union")
            optional = isinstance(kind, tuple) and kind[0] == "Optional"
            wants_default = optional or (not container and kind != T and rng.random() < 0.6)
            if defaulted and not wants_default:
                continue  # Python: no parameter without a default after one with a default
            pname = self.param_name(func, kind)
            default = ("None" if optional else self.default_for(kind)) if wants_default else None
            defaulted = defaulted or wants_default
            params.append((pname, kind, default, kind != T or rng.random() < 0.5))
            func.scope[pname] = kind
            f.features.append(f"param:{f.ann(kind)}")
        ret = rng.choices([T, Tuple(T, T), Dict(STR, T), List(T), Tuple(T, INT)], [10, 2, 1, 1, 1])[0]
        func.ret = ret
        comment = rng.random() < 0.07 and not self.SIGNATURE_MISTAKES & set(mistakes)
        for pname, kind, default, annotated in params:
            text = f"{pname}: {f.ann(kind)}" if annotated and not comment else pname
            func.params.append(text + (f" = {default}" if default is not None and text != pname else
                                       f"={default}" if default is not None else ""))
        if comment:
            func.type_comment = f"({', '.join(f.ann(kind) for _, kind, _, _ in params)}) -> {f.ann(ret)}"
            f.features.append("type_comment")
        elif ret != T or rng.random() < 0.5:
            func.ret_annotation = f.ann(ret)
        return func

    def param_name(self, func: Func, kind) -> str:
        pool = {INT: ["n", "steps", "dim", "k"], FLOAT: ["scale", "alpha", "eps"], BOOL: ["flag", "use_mask"],
                STR: ["mode", "reduction"], T: ["y", "other", "bias"], List(INT): ["sizes", "shape"],
                Tuple(INT, INT): ["size", "kernel"], Dict(STR, T): ["extras", "feats"]}
        choices = pool.get(kind, ["mask", "state", "prev", "opt"])
        base = self.rng.choice(choices)
        name, n = base, 1
        taken = set(func.scope)
        while name in taken:
            name = f"{base}{n}"
            n += 1
        func.scope[name] = kind  # taken from now on
        return name

    def forward_body(self, func: Func, m: ModuleCtx | None, mistakes: list[str]) -> None:
        b = Builder(self, func, func.scope, m)
        self.builder = b
        if m is not None and getattr(self, "base_methods", False) and self.rng.random() < 0.7:
            b.emit(f"{b.main} = self.shared({b.main})")
        # parameter-level mistakes change the signature first
        body_mistakes = []
        for name in sorted(mistakes, key=lambda n: n == "kwargs"):  # `*args`/`**kwargs` come last
            if not self.signature_mistake(name, func, b):
                body_mistakes.append(name)
        b.statements(self.rng.randint(2, 7), body_mistakes)
        b.emit(f"return {b.expr(func.ret, 1) if func.ret != T else b.var(T) or 'x'}")

    def function_program(self, mistakes: list[str]) -> None:
        func = self.signature(Func("entry"), mistakes)
        self.forward_body(func, None, mistakes)
        self.root_func = func

    # -- mistakes ---------------------------------------------------------------------------------------------------
    def signature_mistake(self, name: str, func: Func, b: Builder) -> bool:
        """Mistakes in the root's parameters; True when handled here."""
        f = self.file
        if name == "unannotated_float_default":
            p = self.param_name(func, FLOAT)
            func.params.append(f"{p}={self.rng.choice(['1.0', '0.5', '2'])}")
            b.bind(p, FLOAT)
            b.emit(f"{b.main} = {b.main} * {p}")
        elif name == "none_default_not_optional":
            t = self.rng.choice([INT, T, List(INT), FLOAT])
            p = self.param_name(func, t)
            func.params.append(f"{p}: {f.ann(t)} = None")
            b.bind(p, Optional(t))
            with b.nested(f"if {p} is not None:"):
                b.emit(f"{b.main} = {b.main} + {p}" if t in (T, INT, FLOAT) else f"{b.main} = {b.main}.view({p})")
        elif name == "mutable_default":
            p = self.param_name(func, List(INT))
            annotated = self.rng.random() < 0.5
            func.params.append(f"{p}: {f.ann(List(INT))} = [1, -1]" if annotated else f"{p}=[1, -1]")
            b.emit(f"{b.main} = {b.main}.view({p})")
        elif name == "kwargs":
            func.params.append(self.rng.choice(["**kwargs", "*args", "*args, **kwargs"]))
        elif name == "opt_param_no_default_none":
            p = self.param_name(func, Optional(T))
            func.params.append(f"{p}=None")
            b.bind(p, Optional(T))
            with b.nested(f"if {p} is not None:"):
                b.emit(f"{b.main} = {b.main} + {p}")
        elif name == "union_unrefined":
            f.typing.add("Union")
            p = self.param_name(func, Union(INT, T))
            func.params.append(f"{p}: {f.ann(Union(FLOAT, T))} = 1.0")
            b.emit(f"{b.main} = {b.main} {self.rng.choice(['*', '+'])} {p}")
        elif name == "type_comment_arity":
            # a type comment that does not match the parameters: one type short, or annotations as well
            names = [n for n in (p.split(":")[0].split("=")[0].strip() for p in func.params) if n in func.scope]
            extra = self.param_name(func, INT)
            func.params = names + [extra]
            types = [f.ann(func.scope[n]) for n in names]
            if self.rng.random() < 0.5:
                func.type_comment = f"({', '.join(types)}) -> {f.ann(func.ret)}"
            else:
                func.params[-1] = f"{extra}: int"
                func.type_comment = f"({', '.join(types + ['int'])}) -> {f.ann(func.ret)}"
            func.ret_annotation = None
            func.scope[extra] = INT
            b.bind(extra, INT)
        else:
            return False
        f.features.append(f"mistake:{name}")
        return True

    def mistake(self, name: str, b: Builder) -> None:
        """A statement-level mistake at the builder's current position (falls back to a plain statement when the
        context does not allow it)."""
        f, rng = self.file, self.rng
        m = b.module
        h = b.var(T) or "x"
        done = True
        if name == "retype_local":
            t0, t1, e1 = rng.choice([
                (INT, FLOAT, None), (FLOAT, T, None), (List(INT), T, None), (T, List(T), f"{h}.split(1)"),
                (INT, T, None), (T, INT, None), (List(T), T, None), (STR, INT, None),
            ])
            v = b.assign(t0, b.expr(t0, 1))
            if rng.random() < 0.5:
                b.statement(0)
            b.emit(f"{v} = {e1 or b.expr(t1, 1)}")
            b.bind(v, t1)
        elif name == "retype_none":
            v = b.fresh(Optional(T))
            b.emit(f"{v} = None")
            with b.nested(f"if {b.cond()}:"):
                b.emit(f"{v} = {b.tensor(1)}")
            with b.nested(f"if {v} is not None:"):
                b.emit(f"{h} = {h} + {v}")
        elif name == "one_branch_only":
            t = rng.choice([T, INT, FLOAT])
            v = b.fresh(t)
            with b.nested(f"if {b.cond()}:"):
                b.emit(f"{v} = {b.expr(t, 1)}")
            if rng.random() < 0.3:
                with b.nested("else:"):
                    b.emit(f"{h} = {h} * 2")
            b.emit(f"{h} = {h} * {v}" if t != T else f"{h} = {h} + {v}")
        elif name == "optional_unchecked":
            opts = [n for n, t in b.scope.vars.items() if isinstance(t, tuple) and t[0] == "Optional"]
            if opts:
                o = rng.choice(opts)
            else:
                o = b.fresh(Optional(T))
                b.emit(f"{o}: {f.ann(Optional(T))} = {rng.choice(['None', h])}")
                b.bind(o, Optional(T))
            inner = b.scope.vars[o][1]
            b.emit(f"{h} = {h} + {o}" if inner in (T, INT, FLOAT) else f"{h} = {h}.view({o})")
        elif name == "optional_attr_refine" and m is not None:
            f.typing.add("Optional")
            a = self.attr_name(m, ["bias", "shift", "offset"])
            m.class_lines.append(f"{a}: {f.ann(Optional(T))}")
            m.init_lines.append(f"self.{a} = torch.zeros(4)" if rng.random() < 0.7 else f"self.{a} = None")
            m.attrs.append(Attr(a, "optional_attr"))
            with b.nested(f"if self.{a} is not None:"):
                b.emit(f"{h} = {h} + self.{a}")
        elif name == "empty_list_wrong_elem":
            v = b.fresh(List(INT), prefer=rng.choice(["vals", "sizes", "outs"]))
            b.emit(f"{v} = []")
            elem = rng.choice([INT, FLOAT, STR, T])
            with b.nested(f"for i in range({b.int_(0)}):", loop=True):
                b.bind("i", INT)
                b.emit(f"{v}.append({b.expr(elem, 0) if elem != INT else 'i'})")
            b.bind(v, List(elem))
        elif name == "empty_dict_wrong_value":
            v = b.fresh(Dict(STR, INT))
            b.emit(f"{v} = {{}}")
            val = rng.choice([INT, FLOAT, T, STR])
            b.emit(f'{v}["{rng.choice(["a", "b"])}"] = {b.expr(val, 0)}')
            b.bind(v, Dict(STR, val))
        elif name == "mixed_list":
            b.assign(List(INT), rng.choice(["[1, 2.0]", f"[{h}, None]", '[1, "a"]', f"[{h}, 1]",
                                            f"[{h}.size(0), 0.5]"]))
        elif name == "list_annotation_mismatch":
            t, value = rng.choice([(List(INT), "[1.0, 2.0]"), (List(T), "[1, 2]"), (List(FLOAT), f"[{h}]"),
                                   (Dict(STR, T), '{"a": 1}'), (Tuple(INT, INT), "(1, 2, 3)"),
                                   (List(INT), f"{h}.shape[0]")])
            v = b.fresh(t)
            b.emit(f"{v}: {f.ann(t)} = {value}")
        elif name == "modulelist_var_index" and m is not None:
            ml = m.modulelists[0] if m.modulelists else self.attr(m, "modulelist").name
            style = rng.choice(["range_len", "var", "enumerate"])
            if style == "range_len":
                with b.nested(f"for i in range(len(self.{ml})):", loop=True):
                    b.emit(f"{h} = self.{ml}[i]({h})")
            elif style == "enumerate":
                with b.nested(f"for i, layer in enumerate(self.{ml}):", loop=True):
                    b.emit(f"{h} = layer({h}) + self.{ml}[i]({h})")
            else:
                k = b.fresh(INT, prefer="idx")
                b.emit(f"{k} = {b.int_(1)}")
                b.emit(f"{h} = self.{ml}[{k}]({h})")
        elif name == "moduledict_var_key" and m is not None:
            md = m.moduledicts[0] if m.moduledicts else self.attr(m, "moduledict").name
            keys = next(a for a in m.attrs if a.name == md).extra["keys"]
            k = b.fresh(STR, prefer="key")
            b.emit(f'{k} = "{keys[0]}"')
            b.emit(f"{h} = self.{md}[{k}]({h})")
        elif name == "try_except":
            with b.nested("try:"):
                b.statement(0)
            with b.nested(rng.choice(["except Exception:", "except RuntimeError as err:", "except:"])):
                b.emit(f"{h} = {h} * 0")
        elif name == "lambda":
            fn = b.fresh(T, prefer=rng.choice(["fn", "act_fn", "op"]))
            b.emit(f"{fn} = lambda t: t * {b.float_(0)}")
            b.emit(f"{h} = {fn}({h})")
        elif name == "generator_expr":
            lt = b.var(List(T)) or b.assign(List(T), f"[{h}, {h}]")
            b.emit(rng.choice([f"{h} = {h} + sum(t.sum() for t in {lt})",
                               f"ok = any(t.numel() > 0 for t in {lt})",
                               f"{h} = torch.stack(tuple(t * 2 for t in {lt}))"]))
        elif name == "star_args":
            hname = self.unique_helper("apply_all")
            func = Func(hname, params=["*tensors"], ret=T)
            func.lines = [(0, "out = tensors[0]"), (0, "for t in tensors[1:]:"), (1, "out = out + t"), (0, "return out")]
            f.helpers.append(func)
            b.emit(f"{h} = {hname}({h}, {h})")
        elif name == "star_call":
            lv = b.var(List(INT))
            b.emit(rng.choice([
                f"{h} = {h}.view(*{lv or h + '.shape'})", f"{h} = {h}.reshape(*{h}.shape[:2], -1)",
                f"{h} = torch.zeros(*{lv or h + '.shape'})", f"{h} = {h}.expand(*{h}.size())",
                f"{h} = {h}.permute(*[{', '.join(rng.sample(['0', '1', '2'], 3))}])",
            ]))
        elif name == "star_unpack":
            a, rest = b.fresh(INT), b.fresh(List(INT), prefer="rest")
            b.emit(f"{a}, *{rest} = {h}.shape")
            b.bind(a, INT)
            b.bind(rest, List(INT))
        elif name == "unpack_arity":
            text, n = rng.choice([(f"{h}, {h}, {h}", 2), (f"torch.max({h}, dim=1)", 3), (f"({h}.size(0), 1)", 3),
                                  (f"{h}.chunk(3, dim=1)", 2), (f"{h}.shape[-2:]", 3)])
            names = [b.fresh(T) for _ in range(n)]
            b.emit(f"{', '.join(names)} = {text}")
        elif name == "helper_missing_arg":
            fn = self.helper(params_spec=[("t", T, False, True), ("n", INT, False, True)], ret=T)
            b.emit(rng.choice([f"{h} = {fn.name}({h})", f"{h} = {fn.name}({h}, 1, 2)", f"{h} = {fn.name}({h}, m=1)"]))
        elif name == "helper_unannotated_int":
            fn = self.helper(params_spec=[("t", T, False, True), (rng.choice(["n", "k", "factor"]), T, False, False)],
                             ret=T)
            b.emit(f"{h} = {fn.name}({h}, {rng.choice(['2', '0.5', b.int_(1)])})")
        elif name == "attr_unsupported_used" and m is not None:
            a = self.attr(m, "unsupported")
            value = a.extra["value"]
            if "lambda" in value or value == "print":
                b.emit(f"{h} = self.{a.name}({h})")
            elif "Linear" in value:
                b.emit(f"{h} = self.{a.name}[0]({h})")
            elif "np." in value:
                b.emit(f"{h} = {h} * float(self.{a.name}[0])")
            elif value.startswith("{1:"):
                b.emit(f'{h} = {h} * self.{a.name}["b"]')
            else:
                b.emit(f'{h} = {h} * len(self.{a.name})' if "object" not in value else f"print(self.{a.name})")
        elif name == "attr_only_conditional" and m is not None:
            a = self.attr_name(m, ["proj_out", "extra"])
            flag = self.attr_name(m, ["use_proj"])
            m.init_params.append(f"{flag}: bool = False")
            m.init_lines.append(f"if {flag}:")
            m.init_lines.append(f"    self.{a} = nn.Linear(4, 4)")
            with b.nested(rng.choice([f"if self.{a} is not None:", f"if {b.cond()}:"])):
                b.emit(f"{h} = self.{a}({h})")
        elif name == "global_unsupported_used":
            if not f.unsupported_globals:
                self.add_unsupported_global()
            g, what = rng.choice(list(f.unsupported_globals.items()))
            b.emit({
                "None": f"{h} = {h} if {g} is None else {h} + 1", "list": f"{h} = {h}.view({g})",
                "dict": f'{h} = {h} * {g}["a"]', "set": f"ok = {b.str_(0)} in {g}", "tensor": f"{h} = {h} + {g}",
                "module": f"{h} = {g}({h})", "lambda": f"{h} = {g}({h})", "ndarray": f"{h} = {h} * float({g}[0])",
            }[what])
        elif name == "global_statement":
            g = f.fresh_global("CALLS")
            f.globals.append(f"{g} = 0")
            b.emit(f"global {g}")
            b.emit(f"{g} += 1")
        elif name == "numpy_in_script":
            f.uses("np")
            b.emit(rng.choice([f"{h} = {h} * np.sqrt(2.0)", f"{h} = torch.from_numpy(np.ones(3))",
                               f"arr = {h}.detach().numpy()", f"{h} = {h} * float(np.pi)",
                               f"{h} = {h}.clamp(0.0, np.inf)"]))
        elif name == "return_type_mismatch":
            v = rng.choice([f"{h}.sum().item()", "None", f"{h}.size(0)", f"({h}, {h})", "[" + h + "]"])
            with b.nested(f"if {b.cond()}:"):
                b.emit(f"return {v}")
        elif name == "return_none_branch":
            if b.depth or b.in_loop:
                done = False
            else:
                with b.nested(f"if {b.cond()}:"):
                    b.emit("return")
        elif name == "float_size":
            n = b.int_(1)
            b.emit(rng.choice([f"{h} = {h}.view({n} / 2, -1)", f"{h} = {h}.reshape(-1, {h}.size(-1) / 2)",
                               f"{h} = torch.zeros({n} / 2)", f"{h} = {h}.repeat(1, {n} * 0.5)",
                               f"{h} = F.interpolate({h}, size=({h}.size(-1) * 1.5, 4))",
                               f"{h} = {h}.narrow(0, 0, {h}.size(0) / 2)", f"{h} = {h}.unsqueeze({b.float_(0)})",
                               f"{h} = F.pad({h}, [{h}.size(-1) / 4, 0])"]))
            if "F." in b.func.lines[-1][1]:
                f.uses("F")
        elif name == "numpy_keyword":
            b.emit(rng.choice([f"{h} = {h}.sum(axis=1)", f"{h} = {h}.mean(axis=-1, keepdims=True)",
                               f"{h} = torch.cat([{h}, {h}], axis=0)", f"{h} = {h}.max(axis=0)[0]",
                               f"{h} = {h}.clamp(minimum=0.0)", f"{h} = {h}.view(shape=[-1])",
                               f"{h} = torch.zeros(size=[2, 2])", f"{h} = {h}.sum(dim=1, keepdims=True)"]))
        elif name == "cat_no_list":
            b.emit(rng.choice([f"{h} = torch.cat({h}, {h})", f"{h} = torch.stack({h}, {h})",
                               f"{h} = torch.cat({h}, dim=0)"]))
        elif name == "full_int_size":
            b.emit(rng.choice([f"{h} = torch.full({b.int_(0)}, 1.0)", f"{h} = torch.zeros({h}.shape[0:1] + 1)",
                               f"{h} = torch.ones({b.float_(0)})", f"{h} = {h}.new_zeros({h}.size(0))"]))
        elif name == "interpolate_int_scale":
            f.uses("F")
            b.emit(rng.choice([f"{h} = F.interpolate({h}, scale_factor=2)",
                               f'{h} = F.interpolate({h}, size={b.int_(0)}, mode="nearest")',
                               f"{h} = F.interpolate({h}, scale_factor=(2, 2))",
                               f"{h} = F.interpolate({h}, size=[{h}.size(-1) * 2.0])"]))
        elif name == "item_annotated_float":
            v = b.fresh(FLOAT)
            b.emit(rng.choice([f"{v}: float = {h}.sum().item()", f"{v}: int = {h}.argmax().item()"]))
            b.bind(v, FLOAT)
        elif name == "tolist_unannotated":
            v = b.fresh(List(FLOAT))
            b.emit(f"{v} = {h}.tolist()")
        elif name == "round_to_int":
            v = b.fresh(INT)
            b.emit(f"{v}: int = round({b.float_(1)})")
        elif name == "range_float":
            with b.nested(f"for i in range({rng.choice([b.float_(1), h + '.size(0) / 2', 'len(' + h + ') * 0.5'])}):",
                          loop=True):
                b.emit(f"{h} = {h} + 1")
        elif name == "module_in_forward":
            f.uses("nn")
            b.emit(rng.choice([f"{h} = nn.ReLU()({h})", f"{h} = nn.Linear(4, 4)({h})",
                               "w = nn.Parameter(torch.ones(4))", f"{h} = nn.functional.relu({h})"]))
        elif name == "nested_def":
            b.emit("def inner(t):")
            b.emit("    return t * 2")
            b.emit(f"{h} = inner({h})")
        elif name == "fstring_spec":
            b.emit(rng.choice([f'print(f"{{{b.quoted(b.float_(0))}:.3f}}")', f'msg = f"{{{h}.size(0)!r}}"',
                               f'msg = f"{{{b.quoted(b.int_(0))}:>4}}"']))
        elif name == "percent_format":
            b.emit(f'msg = "size %d" % {b.int_(0)}')
        elif name == "print_keyword":
            b.emit(rng.choice([f'print({h}, end="")', f'print({h}, file=None)', f"print({h}, flush=True)"]))
        elif name == "isinstance_ndarray":
            f.uses("np")
            with b.nested(f"if isinstance({h}, np.ndarray):"):
                b.emit(f"{h} = torch.from_numpy({h})")
        elif name == "final_assign" and m is not None:
            a = next((x for x in m.attrs if x.kind == "final"), None) or self.attr(m, "final")
            b.emit(f"self.{a.name} = {self.default_for(a.type)}")
        elif name == "attr_assign_retype" and m is not None:
            vals = [x for x in m.attrs if x.kind == "value" and x.type in (INT, STR, BOOL)]
            a = rng.choice(vals) if vals else self.attr(m, "int")
            b.emit(f"self.{a.name} = {rng.choice([h, '0.5', h + '.size(0) / 2', 'None'])}")
        elif name == "class_annotation_mismatch" and m is not None:
            a = self.attr_name(m, ["count", "num", "steps_"])
            t, value = rng.choice([(INT, "0.5"), (FLOAT, "None"), (f.ann(List(INT)), "[0.5]"), (BOOL, "1"),
                                   (f.ann(T), "0")])
            m.class_lines.append(f"{a}: {t}")
            m.init_lines.append(f"self.{a} = {value}")
            b.emit(f"print(self.{a})")
        elif name == "ignored_unannotated_int" and m is not None:
            meth = self.attr_name(m, ["_eager_scale", "_py_helper"])
            func = Func(meth, params=["t", "k"], is_method=True, decorators=["@torch.jit.ignore"], ret=None,
                        lines=[(0, "return t * k")])
            m.methods.append(func)
            b.emit(f"{h} = self.{meth}({h}, {b.int_(0)})")
        elif name == "export_with_error" and m is not None:
            inner = rng.choice([n for n in ("retype_local", "optional_unchecked", "try_except", "numpy_keyword",
                                            "float_size", "one_branch_only")])
            self.method(m, decorators=["@torch.jit.export"], mistakes=[inner], callable_=False)
            done = None  # the statement slot itself stays plain
        elif name == "property_with_error" and m is not None:
            prop = self.attr_name(m, ["out_dim", "num_params", "info"])
            func = Func(prop, is_method=True, decorators=["@property"], ret=None,
                        lines=[(0, rng.choice(["return sum(p.numel() for p in self.parameters())",
                                               "return [k for k in self.state_dict()]",
                                               "return {1, 2}"]))])
            m.methods.append(func)
            done = None
        elif name == "dict_mixed_values":
            b.assign(Dict(STR, T), rng.choice([f'{{"a": {h}, "b": 1}}', '{"a": 1, "b": 0.5}',
                                               f'{{1: {h}, "b": {h}}}', f'{{(0, 1): {h}}}']))
        elif name == "str_plus_int":
            b.assign(STR, rng.choice([f'"layer" + {b.int_(0)}', f'"x" + {h}.size(0)', f"{b.str_(0)} + 1"]))
        elif name == "tuple_var_index":
            t = b.fresh(Tuple(T, INT))
            b.emit(f"{t} = ({h}, {h}.size(0))")
            i = b.fresh(INT)
            b.emit(f"{i} = {b.int_(0)}")
            b.emit(f"print({t}[{i}])")
        elif name == "optional_int_arith":
            v = b.fresh(Optional(INT))
            b.emit(f"{v}: {f.ann(Optional(INT))} = {rng.choice(['None', '3'])}")
            b.emit(f"{h} = {h}.view({v}, -1)" if rng.random() < 0.5 else f"n2 = {v} + 1")
        elif name == "super_forward" and m is not None:
            b.emit(f"{h} = super().forward({h})")
        elif name == "classmethod_call" and m is not None:
            meth = self.attr_name(m, ["build_scale", "default_eps"])
            m.methods.append(Func(meth, params=["cls"], decorators=["@classmethod"], ret=None,
                                  lines=[(0, "return 2.0")]))
            b.emit(f"{h} = {h} * self.{meth}()")
        elif name == "local_type_comment":
            # a `# type:` comment on an assignment: torch reads any `# type:` line of a function as its signature
            t = rng.choice([List(INT), Dict(STR, T), List(T)])
            v = b.fresh(t)
            b.emit(f"{v} = {'{}' if t[0] == 'Dict' else '[]'}  # type: {f.ann(t)}")
            b.bind(v, t)
        elif name == "walrus":
            with b.nested(f"if ({b.fresh(INT, prefer='n')} := {h}.size(0)) > 1:"):
                b.emit(f"{h} = {h} * 2")
        elif name == "sum_keepdims":
            b.emit(f"{h} = {h}.sum(1, True, torch.float32)" if rng.random() < 0.5 else f"{h} = {h}.mean(1, 1)")
        elif name == "view_tuple_of_float":
            b.emit(f"{h} = {h}.view(({b.float_(0)}, -1))")
        elif name == "python_list_of_modules" and m is not None:
            a = self.attr_name(m, ["layers_list", "mods"])
            m.init_lines.append(f"self.{a} = [nn.Linear(4, 4), nn.ReLU()]")
            with b.nested(f"for layer in self.{a}:", loop=True):
                b.emit(f"{h} = layer({h})")
        elif name == "attr_none_used" and m is not None:
            a = self.attr_name(m, ["norm_", "proj_", "gate"])
            m.init_lines.append(f"self.{a} = None")
            b.emit(f"{h} = self.{a}({h})" if rng.random() < 0.6 else f"{h} = {h} + self.{a}")
        elif name == "len_of_int":
            b.emit(f"n2 = len({b.int_(1)})")
        elif name == "dict_int_key_str_lookup":
            v = b.fresh(Dict(INT, T))
            b.emit(f"{v} = {{0: {h}, 1: {h}}}")
            b.emit(f'{h} = {v}["0"]')
        elif name == "chained_bad_min":
            b.emit(f"{h} = {h} * min({h}.size(0), 0.5, 2)" if rng.random() < 0.5 else "n2 = max([1, 2.0])")
        elif self.frontend_site_mistake(name, b, h):
            pass
        else:
            done = False
        if done is False:
            b.statement()
        else:
            f.features.append(f"mistake:{name}")
            if done is None:
                b.statement()

    def frontend_site_mistake(self, name: str, b: Builder, h: str) -> bool:
        """Statements that reach the frontend's error sites one at a time (`error_sites.toml`), each drawn now and
        then as a look-alike torch accepts; False when `name` is not one of them."""
        rng, m = self.rng, b.module
        if name == "branch_types_differ":
            v = b.fresh(INT, prefer=rng.choice(["n", "scale", "val"]))
            t_else = rng.choice([FLOAT, T, STR, INT, List(INT)])
            with b.nested(f"if {b.cond()}:"):
                b.emit(f"{v} = {b.int_(0)}")
            with b.nested("else:"):
                b.emit(f"{v} = {b.expr(t_else, 0)}")
            b.emit(f"print({v})")
        elif name == "ifexp_types_differ":
            v = b.fresh(INT, prefer=rng.choice(["n", "val"]))
            other = rng.choice([FLOAT, T, STR, INT, NONE])
            b.emit(f"{v} = {b.int_(0)} if {b.cond()} else {b.expr(other, 0)}")
            b.emit(f"print({v})")
        elif name == "tuple_index_range":
            t = b.fresh(Tuple(T, INT))
            b.emit(f"{t} = ({h}, {h}.size(0))")
            b.emit(f"print({t}[{rng.choice(['2', '-3', '1', '-1', '0:3', '5:'])}])")
        elif name == "cond_not_bool":
            test = rng.choice([f"{b.list_(INT, 0)}", f"{b.str_(0)}", f"{h}.shape", f"{b.int_(0)}", f"{b.float_(0)}",
                               f"({h}, 1)", "None", f"{h}.sum()"])
            loop = rng.random() < 0.3
            with b.nested(f"while {test}:" if loop else f"if {test}:", loop=loop):
                b.emit(f"{h} = {h} * 2")
                if loop:
                    b.emit("break")
        elif name == "del_target":
            v = b.fresh(List(INT))
            b.emit(f"{v} = [1, 2, 3]")
            b.emit(rng.choice([f"del {v}[0:1]", f"del {v}[0]", f"del {v}", f"del {v}[0], {v}[0]",
                               f"del {v}[:]"] + ([f"del self.{m.attrs[0].name}"] if m and m.attrs else [])))
        elif name == "slice_assign":
            v = b.fresh(List(INT))
            b.emit(f"{v} = [1, 2, 3]")
            b.emit(rng.choice([f"{v}[0:2] = [4, 5]", f"{v}[1] = 4", f"{h}[0:2] = 0", f"{v}[:] = []",
                               f"{v}[0:1] += [1]"]))
        elif name == "builtin_arity":
            v = b.fresh(List(INT))
            b.emit(f"{v} = [1, 2]")
            b.emit(rng.choice([f"for i in range(0, {b.int_(0)}, 1, 2):", f"for i, e in enumerate({v}, 0, 1):",
                               f"for i, e in enumerate({v}, begin=1):", f"for i, e in enumerate({v}, start=1):",
                               "for i in range():", f"for i, e in zip({v}, {v}):", "for i in zip():",
                               "for i, e in enumerate():"]))
            b.func.lines.append((b.depth + 1, f"{h} = {h} + 1"))
        elif name == "loop_else":
            head = rng.choice([f"for i in range({b.int_(0)}):", f"while {h}.size(0) > 100:"])
            with b.nested(head, loop=True):
                b.emit(f"{h} = {h} + 1")
                if head.startswith("while"):
                    b.emit("break")
            if rng.random() < 0.8:
                with b.nested("else:"):
                    b.emit(f"{h} = {h} * 2")
        elif name == "set_comprehension":
            b.emit(rng.choice(["vals = {i for i in range(3)}", "vals = [i for i in range(3)]",
                               "vals = {i: i for i in range(3)}", "vals = set([1, 2])"]))
        elif name == "import_in_body":
            b.emit(rng.choice(["import math", "from typing import List", "import torch.nn.functional as G"]))
        elif name == "comprehension_shape":
            b.emit(rng.choice(["vals = [i for i in range(4) if i > 1]", "vals = [i * j for i in range(2) for j in range(3)]",
                               "vals = {str(i): i for i in range(4) if i > 1}", "vals = [i for i in range(4)]"]))
        elif name == "annotation_without_value":
            v = b.fresh(INT)
            b.emit(f"{v}: int")
            b.emit(f"{v} = {b.int_(0)}")
            b.emit(f"print({v})")
        elif name == "dict_expansion":
            v = b.fresh(Dict(STR, INT))
            b.emit(f'{v} = {{"a": 1}}')
            b.emit(rng.choice([f'{v} = {{**{v}, "b": 2}}', f"print({{**{v}}})", f'{v} = dict({v})']))
        elif name == "keyword_expansion":
            for line in rng.choice([['opts = {"dim": 1}', f"{h} = {h}.sum(**opts)"],
                                    ["sizes = [1, -1]", f"{h} = {h}.view(*sizes)"], [f"{h} = {h}.sum(**{{}})"],
                                    ["sizes = [1, -1]", f"{h} = {h}.view(sizes)"]]):
                b.emit(line)
        elif name == "tensor_index_kind":
            b.emit(f"{h} = {h}[{rng.choice(['0.5', chr(34) + 'a' + chr(34), '..., ...', 'None, ..., 0', '[0, 1]', '(0, 1)', 'True', '..., ' + h + '.long()', '1:2, ...'])}]")
        elif name == "container_multi_index":
            v = b.fresh(List(INT))
            b.emit(f"{v} = [1, 2]")
            b.emit(rng.choice([f"print({v}[0, 1])", f"print({v}[0:1, 0])", f"print({v}[0])", f"print({v}[...])"]))
        elif name == "attr_name_not_literal" and m is not None:
            a = m.attrs[0].name if m.attrs else "training"
            b.emit(f'key = "{a}"')
            b.emit(rng.choice([f"print(hasattr(self, key))", f"print(getattr(self, key))",
                               f'print(hasattr(self, "{a}"))', f'print(getattr(self, "{a}", None))']))
        elif name == "annotated_after_bound":
            v = b.fresh(INT)
            b.emit(f"{v} = {b.int_(0)}")
            b.emit(f"{v}: {rng.choice(['int', 'float'])} = {b.int_(0)}")
            b.emit(f"print({v})")
        elif name == "iterate_scalar":
            with b.nested(rng.choice([f"for i in {b.int_(0)}:", f"for i in {b.float_(0)}:", f"for i in {h}.size():",
                                      f"for i in {h}.size(0):", "for i in None:"]), loop=True):
                b.emit(f"{h} = {h} + 1")
        elif name == "subscript_scalar":
            v = b.fresh(INT)
            b.emit(f"{v} = {b.int_(0)}")
            b.emit(rng.choice([f"print({v}[0])", f"print({h}.size()[0])", f"print({b.float_(0)}[0])"]))
        elif name == "int_literal_overflow":
            b.emit(rng.choice(["n2 = 99999999999999999999", "n2 = 9223372036854775807", "n2 = -9223372036854775808",
                               "n2 = 2 ** 70", "n2 = 0x7fffffffffffffff"]))
        elif name == "unary_plus":
            b.emit(rng.choice([f"{h} = +{h}", f"n2 = +{b.int_(0)}", f"{h} = -{h}", f"n2 = ~{b.int_(0)}"]))
        elif name == "augmented_matmul":
            for line in rng.choice([[f"{h} @= {h}"], [f"{h} = {h} @ {h}"], [f"{h} **= 2"], [f"{h} //= 2"],
                                    ["n2 = 7", "n2 <<= 1"]]):
                b.emit(line)
        elif name == "reserved_name":
            b.emit(rng.choice([f"__jit_tmp = {h}", f"_jit_tmp = {h}", f"__tmp = {h}"]))
        elif name == "starred_target_alone":
            b.emit(rng.choice(["*rest, = [1, 2]", "first, *rest = [1, 2]", f"*rest, = ({h}, {h})",
                               f"a0, *rest = ({h}, {h}, 1)"]))
        elif name == "with_non_object":
            with b.nested(rng.choice([f"with {h}:", "with torch.no_grad():", f"with {b.int_(0)}:",
                                      "with torch.enable_grad():"])):
                b.emit(f"{h} = {h} + 1")
        elif name == "raise_non_exception":
            with b.nested(f"if {h}.size(0) > 100:"):
                b.emit(rng.choice(['raise "bad size"', "raise ValueError", 'raise ValueError("bad size")',
                                   "raise 1", "raise RuntimeError"]))
        else:
            return False
        return True

    def add_unsupported_global(self) -> None:
        f = self.file
        g = f.fresh_global(self.rng.choice(["SIZES", "TABLE"]))
        if g.startswith("SIZES"):
            f.globals.append(f"{g} = [2, -1]")
            f.unsupported_globals[g] = "list"
        else:
            f.globals.append(f'{g} = {{"a": 1}}')
            f.unsupported_globals[g] = "dict"

    # -- rendering ----------------------------------------------------------------------------------------------------
    def render(self, kind: str) -> str:
        f = self.file
        parts: list[str] = []
        body: list[list[str]] = []
        for helper in f.helpers:
            body.append(helper.render(0))
        for cls in f.classes:
            body.append(cls)
        if kind == "module":
            body.append(self.root_class.render(f))
            main = "    scripted = torch.jit.script(Model())"
        else:
            body.append(self.root_func.render(0))
            main = "    scripted = torch.jit.script(entry)"
        parts.append("\n".join(f.header()))
        if f.globals:
            parts.append("\n".join(f.globals))
        for chunk in body:
            parts.append("\n".join(chunk))
        parts.append('if __name__ == "__main__":\n' + main)
        return "\n\n\n".join(parts) + "\n"


def generate(seed: int, count: int) -> list[Program]:
    """`count` programs for `seed`; program i depends only on (seed, i)."""
    return [Generator(seed, index).program() for index in range(count)]


if __name__ == "__main__":
    import argparse
    import sys

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=1)
    parser.add_argument("--start", type=int, default=0)
    args = parser.parse_args()
    for i in range(args.start, args.start + args.count):
        p = Generator(args.seed, i).program()
        sys.stdout.write(f"# ---- {p.name} ({', '.join(p.features)})\n{p.source}\n")

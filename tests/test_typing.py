"""TorchScript's typing where the frontend decides, not Python's: `# type:` signature comments, `@torch.jit._overload`,
refinement of Optionals through `and`/`or`/`not`, `torch.jit.annotate`, and the checks of JIT211-214, JIT417,
JIT418. Every case is a small module of our own, checked both ways: jitlint's findings, and torch 2.13.
"""

import textwrap

import pytest

from oracles import points_at
from oracles.script import script_source

HEADER = "from typing import Dict, List, Optional, Tuple\n\nimport torch\n\n\n"


def src(body: str) -> str:
    return HEADER + textwrap.dedent(body).lstrip("\n")


# (source, code, torch's text); the flagged line ends with `# flagged`.
FLAGGED = {
    "comment-too-many-types": (src('''
        @torch.jit.script
        def f(x):  # flagged
            # type: (int, int) -> int
            return x
        '''), "JIT211", "Number of type annotations (2) did not match the number of function parameters (1)"),
    "comment-method-counts-without-self": (src('''
        class M(torch.nn.Module):
            def forward(self, x):  # flagged
                # type: (Tensor, Tensor) -> Tensor
                return x


        m = torch.jit.script(M())
        '''), "JIT211", "Number of type annotations (2) did not match the number of method parameters (1)"),
    "comment-typed-param-used-as-int": (src('''
        @torch.jit.script
        def f(x, n):
            # type: (Tensor, int) -> Tensor
            return x.mean(dim=n, keepdims=True)  # flagged
        '''), "JIT416", "Keyword argument keepdims unknown"),
    "or-does-not-refine-body": (src('''
        @torch.jit.script
        def f(a: Optional[int], b: Optional[int]) -> int:
            if a is None or b is None:
                return a + b  # flagged
            return 0
        '''), "JIT704", "Arguments for call are not valid"),
    "and-false-refines-nothing": (src('''
        @torch.jit.script
        def f(a: Optional[int], b: Optional[int]) -> int:
            if a is not None and b is not None:
                return 0
            return a + 1  # flagged
        '''), "JIT704", "Arguments for call are not valid"),
    "refinement-through-a-variable": (src('''
        @torch.jit.script
        def f(a: Optional[int]) -> int:
            known = a is not None
            if known:
                return a + 1  # flagged
            return 0
        '''), "JIT704", "Arguments for call are not valid"),
    "overload-call-matches-no-declaration": (src('''
        @torch.jit._overload
        def twice(x: int) -> int: ...


        @torch.jit._overload
        def twice(x: str) -> str: ...


        def twice(x):
            return x + x


        @torch.jit.script
        def f(y: float):
            return twice(y)  # flagged
        '''), "JIT416", "Arguments for call are not valid"),
    "init-annotation-does-not-type-the-attribute": (src('''
        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.name: Optional[str] = None

            def forward(self, name: Optional[str]) -> int:
                self.name = name  # flagged
                return 1


        m = torch.jit.script(M())
        '''), "JIT609", "Wrong type for attribute assignment. Expected NoneType but got Optional[str]"),
    "jit-annotate-in-init-is-the-value": (src('''
        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.name = torch.jit.annotate(Optional[str], None)

            def forward(self, name: Optional[str]) -> int:
                self.name = name  # flagged
                return 1


        m = torch.jit.script(M())
        '''), "JIT609", "Wrong type for attribute assignment. Expected NoneType but got Optional[str]"),
    "no-cascade-after-none-init": (src('''
        @torch.jit.script
        def f(x: torch.Tensor, flag: bool) -> torch.Tensor:
            y = None
            if flag:
                y = x.clone()  # flagged
                return torch.where(x > 0, x, y)
            return x
        '''), "JIT703", "previously had type NoneType but is now being assigned to a value of type Tensor"),
    "int-literal-too-big": (src('''
        @torch.jit.script
        def f() -> int:
            return 18446744073709551615  # flagged
        '''), "JIT212", "Integral constant out of range"),
    "bare-list-variable": (src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            y: List = []  # flagged
            return x
        '''), "JIT213", "Attempted to use List without a contained type"),
    "bare-optional-isinstance": (src('''
        @torch.jit.script
        def f(x: Optional[int]) -> bool:
            return isinstance(x, Optional)  # flagged
        '''), "JIT213", "Attempted to use Optional without a contained type"),
    "enumerate-too-many": (src('''
        @torch.jit.script
        def f(xs: List[int]) -> int:
            n = 0
            for i, v in enumerate(xs, 0, 1):  # flagged
                n += v
            return n
        '''), "JIT418", "enumerate expected at most 2 arguments, got 3"),
    "parameterlist-index-annotated": (src('''
        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.ps = torch.nn.ParameterList([torch.nn.Parameter(torch.ones(2))])

            def forward(self, x: torch.Tensor, i: int) -> torch.Tensor:
                p: torch.Tensor = self.ps[i]  # flagged
                return x + p


        m = torch.jit.script(M())
        '''), "JIT301", "Expected integer literal for index"),
    "unused-method-of-a-class-keeps-its-return-annotation": (src('''
        from typing import Iterator


        @torch.jit.script
        class Counter:
            def __init__(self):
                self.n = 0

            @torch.jit.unused
            def values(self, start: Iterator[int]) -> Iterator[int]:  # flagged
                return iter(range(self.n))


        @torch.jit.script
        def f(c: Counter) -> int:
            return c.n
        '''), "JIT203", "Unknown type constructor Iterator"),
    "named-modules-with-an-interface-submodule": (src('''
        class Plus(torch.nn.Module):
            def forward(self, input: torch.Tensor) -> torch.Tensor:
                return input + 1


        @torch.jit.interface
        class Step(torch.nn.Module):
            def forward(self, input: torch.Tensor) -> torch.Tensor:
                pass


        class M(torch.nn.Module):
            step: Step

            def __init__(self):
                super().__init__()
                self.step = Plus()

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                for name, m in self.named_modules():  # flagged
                    x = x * 2
                return self.step.forward(x)


        m = torch.jit.script(M())
        '''), "JIT406", "Could not compile named_modules() because module is an interface type"),
    "state-dict-in-a-compiled-property": (src('''
        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = torch.nn.Linear(2, 2)

            @property
            def keys(self) -> List[str]:
                return [k for k in self.state_dict()]  # flagged

            def forward(self, x):
                return x


        m = torch.jit.script(M())
        '''), "JIT406", "Compiled functions can't take variable number of arguments"),
    "train-in-forward": (src('''
        class M(torch.nn.Module):
            def forward(self, x):
                self.train()  # flagged
                return x


        m = torch.jit.script(M())
        '''), "JIT406", "Unknown type name 'Self'"),
    "attribute-none-called": (src('''
        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.gate = None

            def forward(self, x):
                return self.gate(x)  # flagged


        m = torch.jit.script(M())
        '''), "JIT426", "cannot call a value of type 'NoneType'"),
    "global-int-in-range": (src('''
        HEADS = 2


        @torch.jit.script
        def f(x: torch.Tensor) -> torch.Tensor:
            for _ in range(HEADS):  # flagged
                x = x + 1
            return x
        '''), "JIT415", "python value of type 'int' cannot be used as a value"),
    "module-loop-variable-rebound-in-a-branch": (src('''
        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.a = torch.nn.ModuleList([torch.nn.ReLU()])
                self.b = torch.nn.ModuleList([torch.nn.ReLU()])

            def forward(self, x, flag: bool):
                for blk in self.a:
                    x = blk(x)
                if flag:
                    for blk in self.b:  # flagged
                        x = blk(x)
                return x


        m = torch.jit.script(M())
        '''), "JIT706", "Cannot re-assign 'blk' to a value of type module"),
    "modulelist-index-typed-by-an-interface-an-element-lacks": (src('''
        from typing import Any


        @torch.jit.interface
        class Step(torch.nn.Module):
            def forward(self, input: Any) -> Any:
                pass


        class Halve(torch.nn.Module):
            def forward(self, input: torch.Tensor) -> torch.Tensor:
                return input / 2


        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.steps = torch.nn.ModuleList([Halve(), Halve()])

            def forward(self, x: torch.Tensor, i: int) -> Any:
                step: Step = self.steps[i]  # flagged
                return step.forward(x)


        m = torch.jit.script(M())
        '''), "JIT301", "is not compatible with interface"),
    "modulelist-index-typed-by-an-interface-other-parameter-names": (src('''
        from typing import Any


        @torch.jit.interface
        class Step(torch.nn.Module):
            def forward(self, input: Any) -> Any:
                pass


        class Halve(torch.nn.Module):
            def forward(self, x: Any) -> Any:
                return x


        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.steps = torch.nn.ModuleList([Halve(), Halve()])

            def forward(self, x: torch.Tensor, i: int) -> Any:
                step: Step = self.steps[i]  # flagged
                return step.forward(x)


        m = torch.jit.script(M())
        '''), "JIT301", "is not compatible with interface"),
    "id-of-a-tensor": (src('''
        @torch.jit.script
        def f(x: torch.Tensor, y: torch.Tensor) -> bool:
            return id(x) == id(y)  # flagged
        '''), "JIT405", "Expected a value of type 'Optional[AnyClassType]' for argument 'x'"),
    "id-of-an-int": (src('''
        @torch.jit.script
        def f(n: int) -> int:
            return id(n)  # flagged
        '''), "JIT405", "Expected a value of type 'Optional[AnyClassType]' for argument 'x'"),
}

LOOKALIKES = {
    "comment-signature": src('''
        @torch.jit.script
        def f(x, n, scale=1.0):
            # type: (Tensor, int, float) -> Tensor
            return x.sum(n) * scale
        '''),
    "comment-without-return": src('''
        @torch.jit.script
        def f(x, n):
            # type: (Tensor, int)
            for _ in range(n):
                x = x + 1
            return x
        '''),
    "comment-per-parameter": src('''
        def g(x,  # type: Tensor
              n,  # type: int
              ):
            # type: (...) -> Tensor
            return x.sum(n)


        f = torch.jit.script(g)
        '''),
    "overloads-type-the-implementation": src('''
        @torch.jit._overload
        def scale(x: int, factor: int) -> int: ...


        @torch.jit._overload
        def scale(x: float, factor: int) -> float: ...


        def scale(x, factor=2):
            return x * factor


        @torch.jit.script
        def f(a: int, b: float) -> float:
            return scale(a) + scale(b, 3)
        '''),
    "and-refines-both": src('''
        @torch.jit.script
        def f(a: Optional[int], b: Optional[int]) -> int:
            if a is not None and b is not None:
                return a + b
            return 0
        '''),
    "or-early-exit-refines-both": src('''
        @torch.jit.script
        def f(a: Optional[int], b: Optional[int]) -> int:
            if a is None or b is None:
                return 0
            return a + b
        '''),
    "not-of-or-refines": src('''
        @torch.jit.script
        def f(a: Optional[int], b: Optional[int]) -> int:
            if not (a is None or b is None):
                return a + b
            return 0
        '''),
    "assert-and-refines": src('''
        @torch.jit.script
        def f(a: Optional[int], b: Optional[int]) -> int:
            assert a is not None and b is not None
            return a + b
        '''),
    "annotate-tolist": src('''
        @torch.jit.script
        def f(x: torch.Tensor) -> List[float]:
            values = torch.jit.annotate(List[float], x.tolist())
            return values
        '''),
    "int64-max-literal": src('''
        @torch.jit.script
        def f() -> int:
            return 9223372036854775807
        '''),
    "builtin-list-annotation": src('''
        @torch.jit.script
        def f(x: list) -> int:
            return len(x)
        '''),
    "hasattr-literal": src('''
        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = torch.nn.Linear(2, 2)

            def forward(self, x):
                if hasattr(self, "proj"):
                    return self.proj(x)
                return x


        m = torch.jit.script(M())
        '''),
    "ignore-context-manager-body-not-compiled": src('''
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor) -> int:
                n: int = 3
                total: int = 0
                with torch.jit._IgnoreContextManager(n="inp:int", total="out:int"):
                    evens = [i for i in range(n) if i % 2 == 0]
                    total = sum(evens)
                return total


        m = torch.jit.script(M())
        '''),
    "enumerate-start-keyword": src('''
        @torch.jit.script
        def f(xs: List[int]) -> int:
            n = 0
            for i, v in enumerate(xs, start=1):
                n += i * v
            return n
        '''),
    "unused-method-of-a-class-has-its-parameters-replaced": src('''
        from typing import Iterable


        @torch.jit.script
        class Counter:
            def __init__(self):
                self.n = 0

            @torch.jit.unused
            def add_all(self, xs: Iterable[int], scale, **options) -> int:
                return sum(next(iter(xs)) for _ in options) * scale

            def add(self) -> int:
                return self.add_all(xs=[1], scale=2)


        @torch.jit.script
        def f(c: Counter) -> int:
            return c.n
        '''),
    "drop-method-of-a-module-called-from-forward": src('''
        class M(torch.nn.Module):
            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return self.eager(x, [1])

            @torch.jit._drop
            def eager(self, x: torch.Tensor, ys: List[int]) -> torch.Tensor:
                return x * next(iter(ys))


        m = torch.jit.script(M())
        '''),
    "drop-method-of-a-class-is-left-out": src('''
        from typing import Iterator


        @torch.jit.script
        class Bag:
            def __init__(self, items: List[torch.Tensor]):
                self.items = items

            @torch.jit._drop
            def __iter__(self) -> Iterator[torch.Tensor]:
                return iter(self.items)


        @torch.jit.script
        def f(b: Bag) -> int:
            return len(b.items)
        '''),
    "modulelist-index-typed-by-an-interface-elements-implement": src('''
        @torch.jit.interface
        class Step(torch.nn.Module):
            def forward(self, input: torch.Tensor) -> torch.Tensor:
                pass


        class Halve(torch.nn.Module):
            def forward(self, input: Optional[torch.Tensor]) -> torch.Tensor:
                assert input is not None
                return input / 2


        class Double(torch.nn.Module):
            def forward(self, input: torch.Tensor) -> torch.Tensor:
                return input * 2


        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.steps = torch.nn.Sequential(Halve(), Double())

            def forward(self, x: torch.Tensor, i: int) -> torch.Tensor:
                step: Step = self.steps[i]
                return step.forward(x)


        m = torch.jit.script(M())
        '''),
    "modulelist-index-typed-by-an-interface-element-inherits-from-torch": src('''
        @torch.jit.interface
        class Step(torch.nn.Module):
            def forward(self, input: torch.Tensor) -> torch.Tensor:
                pass


        class Projection(torch.nn.Linear):
            def __init__(self):
                super().__init__(2, 2)


        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.steps = torch.nn.ModuleList([Projection()])

            def forward(self, x: torch.Tensor, i: int) -> torch.Tensor:
                step: Step = self.steps[i]
                return step.forward(x)


        m = torch.jit.script(M())
        '''),
    "id-of-class-instances-and-none": src('''
        @torch.jit.script
        class Box:
            def __init__(self, n: int):
                self.n = n


        @torch.jit.script
        def f(a: Box, b: Optional[Box]) -> bool:
            c = Box(1)
            return id(a) != id(b) and id(c) != id(None)
        '''),
    "module-methods-torch-builds-or-compiles": src('''
        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("b", torch.zeros(2))

            def train(self, mode: bool = True):
                return super().train(mode)

            @torch.jit.export
            def to(self, x: torch.Tensor) -> torch.Tensor:
                return x * 2

            def forward(self, x):
                for name, b in self.named_buffers():
                    x = x + b
                return self.to(x), self.extra_repr()


        m = torch.jit.script(M())
        '''),
    "int-accumulator-over-an-unrolled-modulelist": src('''
        class M(torch.nn.Module):
            def __init__(self, act_layer=torch.nn.ReLU):
                super().__init__()
                self.convs = torch.nn.ModuleList([torch.nn.Conv2d(4, 4, 1) for _ in range(3)])
                self.act = act_layer(inplace=True)

            def forward(self, x):
                x1 = 0
                for conv in self.convs:
                    x1 += conv(x)
                return self.act(x1)


        m = torch.jit.script(M())
        '''),
    "attribute-none-called-under-its-test": src('''
        class M(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.gate = None

            def forward(self, x):
                if self.gate is not None:
                    x = self.gate(x)
                return x


        m = torch.jit.script(M())
        '''),
    "attribute-stored-again-by-an-unpacking": src('''
        def make_head(n: int):
            return torch.nn.Identity(), torch.nn.Linear(n, n)


        class M(torch.nn.Module):
            def __init__(self, global_pool: str = "avg"):
                super().__init__()
                self.global_pool = global_pool
                self.global_pool, self.fc = make_head(4)

            def forward(self, x):
                return self.fc(self.global_pool(x))


        m = torch.jit.script(M())
        '''),
    "code-after-an-assert-of-a-false-constant": src('''
        from typing import Final


        class M(torch.nn.Module):
            flag: Final[bool]

            def __init__(self):
                super().__init__()
                self.flag = False
                self.layers = torch.nn.ModuleList([torch.nn.Linear(2, 2)])

            def forward(self, x):
                assert self.flag, "unsupported"
                i = x.dim()
                return self.layers[i](x)


        m = torch.jit.script(M())
        '''),
    "range-of-int-expression": src('''
        @torch.jit.script
        def f(x: torch.Tensor, steps: float) -> torch.Tensor:
            for _ in range(int(steps), 10, 2):
                x = x + 1
            return x
        '''),
}


def flagged_row(source: str) -> int:
    return next(n for n, line in enumerate(source.splitlines(), 1) if line.endswith("# flagged"))


@pytest.mark.parametrize("name", sorted(FLAGGED))
def test_flagged(name, lint_source):
    source, code, _ = FLAGGED[name]
    found = {(f.code, f.location.row) for f in lint_source(source) if f.severity == "error"}
    assert found == {(code, flagged_row(source))}


@pytest.mark.parametrize("name", sorted(LOOKALIKES))
def test_lookalike_is_silent(name, lint_source):
    assert [(f.code, f.location.row) for f in lint_source(LOOKALIKES[name])] == []


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(FLAGGED))
def test_torch_rejects_at_the_flagged_line(name, tmp_path):
    source, _, text = FLAGGED[name]
    result = script_source(source, tmp_path)
    assert result.rejected, result
    assert result.says(text), result.message_full
    assert result.line is None or points_at(result, source, flagged_row(source)), result


@pytest.mark.torch
@pytest.mark.parametrize("name", sorted(LOOKALIKES))
def test_torch_scripts_the_lookalike(name, tmp_path):
    result = script_source(LOOKALIKES[name], tmp_path)
    assert result.ok, result

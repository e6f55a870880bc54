"""TorchScript's typing rules where jitlint follows the frontend's types: tuples (JIT220), annotated assignments
(JIT221), returns (JIT208, JIT222), values that cannot be iterated or indexed (JIT223), Tensor methods that do not
exist (JIT224), `math` functions TorchScript has no builtin for (JIT402), list and dict element types (JIT416).
Every case is a small module of our own, checked both ways: jitlint's findings, and torch 2.13.
"""

import textwrap

import pytest

from oracles import points_at
from oracles.script import script_source

HEADER = "import math\nfrom typing import Dict, List, Optional, Tuple\n\nimport torch\n\n\n"


def src(body: str) -> str:
    return HEADER + textwrap.dedent(body).lstrip("\n")


# (source, code, torch's text); the flagged line ends with `# flagged`.
FLAGGED = {
    "tuple-index-past-the-end": (src('''
        @torch.jit.script
        def f(pair: Tuple[int, float]) -> float:
            return pair[2]  # flagged
        '''), "JIT220", "Tuple index out of range. Tuple is length 2 and index is 2"),
    "tuple-index-below-the-start": (src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            shape = (x, 1, 2.0)
            return shape[-4]  # flagged
        '''), "JIT220", "Tuple index out of range. Tuple is length 3 and index is -4"),
    "tuple-index-float": (src('''
        @torch.jit.script
        def f(pair: Tuple[int, int], scale: float) -> int:
            return pair[scale]  # flagged
        '''), "JIT220", "tuple index must be an integer"),
    "tuple-index-tensor-homogeneous": (src('''
        @torch.jit.script
        def f(pair: Tuple[int, int], x: torch.Tensor) -> int:
            return pair[x]  # flagged
        '''), "JIT220", "tuple index must be an integer"),
    "tuple-index-variable-mixed-types": (src('''
        @torch.jit.script
        def f(flag: bool):
            which = 0
            if flag:
                which = 1
            options = (3, "three")
            return options[which]  # flagged
        '''), "JIT220", "Cannot index into a Tuple[int, str] with a non-integer literal"),
    "tuple-item-assignment": (src('''
        @torch.jit.script
        def f(size: Tuple[int, int]) -> Tuple[int, int]:
            size[1] = 4  # flagged
            return size
        '''), "JIT220", "Tuple[int, int] does not support subscripted assignment"),
    "tuple-item-augmented": (src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            acc = (x, x)
            acc[0] *= 2  # flagged
            return acc
        '''), "JIT220", "Tuple[Tensor, Tensor] does not support augmented assignment"),
    "tuple-method": (src('''
        @torch.jit.script
        def f(dims: Tuple[int, int, int]) -> int:
            return dims.index(2)  # flagged
        '''), "JIT220", "'Tuple[int, int, int]' object has no attribute or method 'index'"),
    "tuple-literal-attribute": (src('''
        @torch.jit.script
        def f(a: int, b: int):
            return (a, b).real  # flagged
        '''), "JIT220", "'Tuple[int, int]' object has no attribute or method 'real'"),
    "tuple-as-condition": (src('''
        @torch.jit.script
        def f(pad: Tuple[int, int], x: torch.Tensor):
            if not pad:  # flagged
                return x
            return x + 1
        '''), "JIT220", "Could not cast value of type Tuple[int, int] to bool"),
    "math-function-without-builtin": (src('''
        @torch.jit.script
        def f(a: float, b: float) -> float:
            return math.hypot(a, b)  # flagged
        '''), "JIT402", "Python builtin <built-in function hypot> is currently not supported in Torchscript"),
    "math-log2": (src('''
        @torch.jit.script
        def f(a: float) -> float:
            return math.log2(a) + 1.0  # flagged
        '''), "JIT402", "Python builtin <built-in function log2> is currently not supported in Torchscript"),
    "annotated-float-given-int": (src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            n: float = x.dim()  # flagged
            return x * n
        '''), "JIT221", "Variable 'n' is annotated with type float but is being assigned to a value of type int"),
    "annotated-bool-given-tensor": (src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            positive: bool = x > 0  # flagged
            return positive
        '''), "JIT221", "Variable 'positive' is annotated with type bool but is being assigned to a value of type Tensor"),
    "annotated-list-is-invariant": (src('''
        @torch.jit.script
        def f(sizes: List[int]):
            maybe: List[Optional[int]] = sizes  # flagged
            return maybe
        '''), "JIT221", "annotated with type List[Optional[int]] but is being assigned to a value of type List[int]"),
    "annotated-str-given-none": (src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            name: str = None  # flagged
            return x
        '''), "JIT221", "annotated with type str but is being assigned to a value of type NoneType"),
    "reannotated-in-a-loop": (src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            total = 0
            for i in range(3):
                total: int = i  # flagged
            return x * total
        '''), "JIT221", "Attempting to declare and annotate the type of variable 'total' but it is already defined in an outer block"),
    "return-int-as-float": (src('''
        @torch.jit.script
        def f(x: torch.Tensor) -> float:
            return x.size(0)  # flagged
        '''), "JIT208", "Return value was annotated as having type float but is actually of type int"),
    "return-tuple-of-other-length": (src('''
        @torch.jit.script
        def f(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
            y = x + 1
            return x, y, x * y  # flagged
        '''), "JIT208", "Tuple[Tensor, Tensor] but is actually of type Tuple[Tensor, Tensor, Tensor]"),
    "return-list-for-tuple": (src('''
        @torch.jit.script
        def f(x: torch.Tensor) -> Tuple[int, int]:
            return x.size()  # flagged
        '''), "JIT208", "annotated as having type Tuple[int, int] but is actually of type List[int]"),
    "return-annotated-by-jit-annotate": (src('''
        @torch.jit.script
        def f(x: torch.Tensor) -> List[int]:
            n = torch.jit.annotate(int, x.size(0))
            return n  # flagged
        '''), "JIT208", "annotated as having type List[int] but is actually of type int"),
    "no-return-after-if": (src('''
        @torch.jit.script
        def f(x: torch.Tensor, k: int) -> torch.Tensor:  # flagged
            if k > 0:
                return x * k
            elif k < 0:
                raise ValueError("negative")
        '''), "JIT222", "Function was not annotated as having type None, but does not return along all paths"),
    "no-return-after-while-true": (src('''
        @torch.jit.script
        def f(x: torch.Tensor) -> Optional[torch.Tensor]:  # flagged
            while True:
                return x
        '''), "JIT222", "Function was not annotated as having type None, but does not return along all paths"),
    "no-return-with-comment-signature": (src('''
        def f(x):  # flagged
            # type: (Tensor) -> Tensor
            x.add_(1)


        g = torch.jit.script(f)
        '''), "JIT222", "Function was not annotated as having type None, but does not return along all paths"),
    "append-int-to-float-list": (src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            scales: List[float] = []
            scales.append(x.size(0))  # flagged
            return scales
        '''), "JIT416", "aten::append.t(t[](a!) self, t(c -> *) el) -> t[](a!)"),
    "dict-indexed-with-other-key-type": (src('''
        @torch.jit.script
        def f(counts: Dict[str, int], i: int) -> int:
            return counts[i]  # flagged
        '''), "JIT416", "Arguments for call are not valid"),
    "dict-stored-with-other-key-type": (src('''
        @torch.jit.script
        def f(counts: Dict[int, int], name: str) -> Dict[int, int]:
            counts[name] = 1  # flagged
            return counts
        '''), "JIT416", "Arguments for call are not valid"),
    "loop-over-an-int": (src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            for i in x.dim():  # flagged
                x = x + i
            return x
        '''), "JIT223", "'int' object is not iterable"),
    "loop-over-a-float": (src('''
        @torch.jit.script
        def f(x: torch.Tensor, scale: float):
            for s in scale:  # flagged
                x = x * s
            return x
        '''), "JIT223", "'float' object is not iterable"),
    "index-into-an-int": (src('''
        @torch.jit.script
        def f(x: torch.Tensor) -> int:
            n = x.size(0)
            return n[0]  # flagged
        '''), "JIT223", "'int' object is not subscriptable"),
    "tensor-method-that-does-not-exist": (src('''
        @torch.jit.script
        def f(x: torch.Tensor) -> torch.Tensor:
            return x.bfloat16()  # flagged
        '''), "JIT224", "'Tensor' object has no attribute or method 'bfloat16'"),
    "tensor-dunder-method": (src('''
        @torch.jit.script
        def f(x: torch.Tensor) -> int:
            return x.__len__()  # flagged
        '''), "JIT224", "object has no attribute or method '__len__'"),
    "tensor-method-as-a-value": (src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            print(x.mean)  # flagged
            return x
        '''), "JIT224", "builtin cannot be used as a value"),
    "lists-of-other-element-types-added": (src('''
        @torch.jit.script
        def f(x: torch.Tensor, sizes: List[int]):
            return sizes + [x.dim() / 2]  # flagged
        '''), "JIT416", "Arguments for call are not valid"),
    "unwrap-optional-of-none": (src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            y = torch.jit._unwrap_optional(None)  # flagged
            return x
        '''), "JIT416", "aten::_unwrap_optional(t(a)? optional) -> t(a)"),
    "list-comprehension-annotated-tuple": (src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            sizes: Tuple[int, int] = [x.size(i) for i in range(2)]  # flagged
            return sizes
        '''), "JIT221", "Expected an annotation of type List but got Tuple[int, int]"),
    "empty-list-annotated-tensor": (src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            out: torch.Tensor = []  # flagged
            return out
        '''), "JIT221", "Expected an annotation of type List but got Tensor"),
    "dict-literal-jit-annotated-list": (src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            table = torch.jit.annotate(List[int], {1: 2})  # flagged
            return x
        '''), "JIT221", "Expected an annotation of type Dict but got List[int]"),
    "tolist-of-tensors": (src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            rows: List[torch.Tensor] = x.tolist()  # flagged
            return rows
        '''), "JIT206", "Tensor is not one of the supported element types for tolist"),
    "arithmetic-in-an-annotation": (src('''
        @torch.jit.script
        def f(x: torch.Tensor, pad: Tuple[int, 2 * 2]):  # flagged
            return x
        '''), "JIT203", "Expression of type * cannot be used in a type expression"),
    "del-a-slice-of-a-tensor": (src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            del x[:2]  # flagged
            return x
        '''), "JIT225", "del statements only support deletion at a single index"),
    "module-list-zipped-with-a-range": ("""from typing import List, Tuple

import torch
import torch.nn as nn


class Twice(nn.Module):
    def forward(self, x):
        return x * 2


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Twice() for _ in range(3)])
        self.pair = nn.Sequential(Twice(), Twice())
        self.others = nn.ModuleList([Twice(), Twice()])

    def forward(self, x, n: int):
        for block, i in zip(self.blocks, range(n)):  # flagged
            x = block(x) * i
        return x
""", "JIT315", "Can not iterate over a module list or tuple with a value that does not have a statically determinable length"),
    "sequential-zipped-with-a-list": ("""from typing import List, Tuple

import torch
import torch.nn as nn


class Twice(nn.Module):
    def forward(self, x):
        return x * 2


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Twice() for _ in range(3)])
        self.pair = nn.Sequential(Twice(), Twice())
        self.others = nn.ModuleList([Twice(), Twice()])

    def forward(self, x, xs: List[torch.Tensor]):
        for block, y in zip(self.pair, xs[::-1]):  # flagged
            x = x + block(y)
        return x
""", "JIT315", "Can not iterate over a module list or tuple with a value that does not have a statically determinable length"),
    "module-list-index-past-the-end": ("""from typing import List, Tuple

import torch
import torch.nn as nn


class Twice(nn.Module):
    def forward(self, x):
        return x * 2


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Twice() for _ in range(3)])
        self.pair = nn.Sequential(Twice(), Twice())
        self.others = nn.ModuleList([Twice(), Twice()])

    def forward(self, x):
        return self.blocks[-4](x)  # flagged
""", "JIT315", "Index -4 out of range of length 3"),
    "branches-make-lists-of-other-types": (src('''
        @torch.jit.script
        def f(x: torch.Tensor, flag: bool):
            if flag:  # flagged
                sizes = [x.size(0)]
            else:
                sizes = [x.size(0) / 2]
            return sizes
        '''), "JIT701", "Type mismatch: sizes is set to type List[int] in the true branch and type List[float]"),
    "if-expression-of-lists-of-other-types": (src('''
        @torch.jit.script
        def f(x: torch.Tensor, flag: bool):
            sizes = [x.size(0)] if flag else [None]  # flagged
            return sizes
        '''), "JIT707", "List[int]"),
    "list-literal-elements-of-another-type": (src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            scales: List[float] = [1.0, x.dim()]  # flagged
            return scales
        '''), "JIT221", "List type annotation `List[float]` did not match the types of the given list elements"),
    "dict-literal-keys-of-another-type": (src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            table: Dict[int, torch.Tensor] = {"first": x}  # flagged
            return table
        '''), "JIT221", "the type of keys given by the dict literal is str"),
    "dict-of-pairs-values-of-another-type": (src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            table: Dict[str, float] = dict([("a", 1.0), ("b", x.dim())])  # flagged
            return table
        '''), "JIT221", "did not match the type of an actual value type `Union[float, int]`"),
    "dict-comprehension-keys-of-another-type": (src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            table = torch.jit.annotate(Dict[int, int], {str(i): i for i in range(3)})  # flagged
            return table
        '''), "JIT221", "did not match the type of an actual key type `str`"),
}

LOOKALIKES = {
    "none-then-tensor-in-a-module-list-loop": """import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.ReLU(), nn.ReLU()])

    def forward(self, x):
        mask = None
        for layer in self.layers:
            mask = layer(x)
        return mask
""",
    "returns-of-calls-that-give-lists-or-tuples": src('''
        import torch.nn.functional as F


        @torch.jit.script
        def f(x: torch.Tensor) -> List[torch.Tensor]:
            return torch.where(x > 0)


        @torch.jit.script
        def g(x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
            return F.max_pool2d(x, 2, return_indices=True)
        '''),
    "hinted-literals-of-the-element-types": src('''
        @torch.jit.script
        def f(x: torch.Tensor, scale: float):
            maybe: List[Optional[int]] = [1, None]
            scales: List[float] = [scale, float(x.dim())]
            tensors: List[torch.Tensor] = [x, x + 1]
            table: Dict[str, Optional[torch.Tensor]] = {"a": x, "b": None}
            pairs: Dict[str, float] = dict([("a", 1.0), ("b", 2.0)])
            counts = torch.jit.annotate(Dict[int, int], {i: i for i in range(3)})
            sizes: List[int] = [i for i in range(3)]
            return maybe, scales, tensors, table, pairs, counts, sizes
        '''),
    "branches-make-lists-of-one-type": src('''
        @torch.jit.script
        def f(x: torch.Tensor, flag: bool, given: List[int]):
            if flag:
                sizes = [x.size(0)]
            else:
                sizes = given
            if flag:
                unused = [1]
            else:
                unused = [1.0]
            return sizes
        '''),
    "module-containers-zipped-and-indexed-within-length": """from typing import List, Tuple

import torch
import torch.nn as nn


class Twice(nn.Module):
    def forward(self, x):
        return x * 2


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Twice() for _ in range(3)])
        self.pair = nn.Sequential(Twice(), Twice())
        self.others = nn.ModuleList([Twice(), Twice()])

    def forward(self, x, xs: List[torch.Tensor], t: Tuple[int, int]):
        for block, other in zip(self.blocks, self.others):
            x = other(block(x))
        for block, k in zip(self.others, t):
            x = block(x) * k
        for i, block in enumerate(self.blocks):
            x = block(x) + xs[i]
        for a, b in zip(xs, xs):
            x = x + a * b
        return self.blocks[2](x) + self.blocks[-3](x) + self.pair[1](x)
""",
    "hinted-containers-of-their-kind": src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            maybe: Optional[List[int]] = [i for i in range(3)]
            table: Dict[int, Optional[int]] = {i: i for i in range(3)}
            other = torch.jit.annotate(Optional[List[int]], [1])
            rows: List[List[float]] = x.tolist()
            flags = torch.jit.annotate(List[bool], x.tolist())
            sizes: List[int] = [1, 2, 3]
            del sizes[0]
            del table[1]
            return maybe, table, other, rows, flags, sizes
        '''),
    "loops-and-indexes-of-lists-and-strings": src('''
        @torch.jit.script
        def f(x: torch.Tensor, name: str, sizes: List[int]):
            for c in name:
                print(c)
            for n in sizes:
                x = x + n
            for i in range(x.dim()):
                x = x + sizes[i] + x.size()[0]
            return x, name[0]
        '''),
    "tensor-methods-casts-and-properties": src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            total = x.sum
            y = x.float().long().half().double().int().to(torch.bool)
            return total(), y, x.real, x.mT, x.data, x.shape, x.is_leaf, x.dtype, x.device
        '''),
    "lists-of-one-element-type-added": src('''
        @torch.jit.script
        def f(x: torch.Tensor, sizes: List[int]) -> List[int]:
            nested = [[1]] + [[x.dim()]]
            return sizes + [x.dim()] + nested[0] + [2]
        '''),
    "module-list-loop-changes-a-type": """from typing import List

import torch
import torch.nn as nn


class Pair(nn.Module):
    def forward(self, x):
        return [x, x]


class Chain(nn.Sequential):
    def __init__(self):
        super().__init__(nn.ReLU(), Pair())

    def forward(self, x) -> List[torch.Tensor]:
        for module in self:
            x = module(x)
        return x


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.chain = Chain()

    def forward(self, x) -> List[torch.Tensor]:
        y: List[List[torch.Tensor]] = []
        y = [self.chain(x)]
        return y[0]
""",
    "annotated-values-of-their-type": src('''
        @torch.jit.script
        def f(x: torch.Tensor, sizes: List[int], k: Optional[int]):
            n: float = x.dim() / 2
            p: float = 2 ** x.dim()
            maybe: Optional[int] = 3
            none: Optional[List[int]] = None
            hinted: List[Optional[int]] = [1, 2]
            table: Dict[str, Optional[int]] = {"a": 1}
            pair: Tuple[int, Optional[int]] = (1, 2)
            same: List[int] = sizes
            copy: Optional[int] = k
            return x * n * p
        '''),
    "annotated-once-per-branch": src('''
        @torch.jit.script
        def f(flag: bool, n: int) -> int:
            if flag:
                m: int = 1
            else:
                m: int = 2
            n: int = 3
            return m + n
        '''),
    "returns-with-conversions": src('''
        @torch.jit.script
        def f(x: torch.Tensor, flag: bool) -> Tuple[int, float, Optional[int]]:
            if flag:
                return x, flag, None
            return x.sum(), x, 3
        '''),
    "returns-on-every-path": src('''
        @torch.jit.script
        def f(x: torch.Tensor, k: int) -> torch.Tensor:
            if k > 0:
                return x
            elif k < 0:
                raise ValueError("negative")
            else:
                with torch.no_grad():
                    return x * 2


        @torch.jit.script
        def g(x: torch.Tensor) -> torch.Tensor:
            for i in range(3):
                x = x + i
            if x.sum() > 0:
                return x
            assert False


        @torch.jit.script
        def h(x: torch.Tensor) -> None:
            x.add_(1)
        '''),
    "return-in-a-folded-branch": src('''
        @torch.jit.script
        def f(x: int) -> float:
            if isinstance(x, float):
                return x
            return 1.0
        '''),
    "appends-and-keys-of-the-element-type": src('''
        @torch.jit.script
        def f(x: torch.Tensor, counts: Dict[int, int], names: Dict[str, int]):
            maybe: List[Optional[int]] = []
            maybe.append(1)
            maybe.append(None)
            floats: List[float] = []
            floats.append(float(x.size(0)))
            counts[x.size(0)] = 1
            return counts[True] + names["a"]
        '''),
    "tuple-index-in-range-and-variable-homogeneous": src('''
        @torch.jit.script
        def f(pair: Tuple[int, int], mixed: Tuple[int, float], i: int) -> float:
            return pair[i] + pair[-2] + mixed[1] + mixed[-1] + pair[0:5][0]
        '''),
    "tuple-length-and-elements-tested": src('''
        @torch.jit.script
        def f(pad: Tuple[int, int], x: torch.Tensor):
            if len(pad) > 0 and pad[0] > 0:
                return x
            return x + 1
        '''),
    "tuple-rebuilt-not-assigned-into": src('''
        @torch.jit.script
        def f(size: Tuple[int, int]) -> Tuple[int, int]:
            size = (size[0], 4)
            items = [size[0], size[1]]
            items[0] += 1
            return size
        '''),
    "math-functions-with-builtins": src('''
        @torch.jit.script
        def f(a: float, b: float) -> float:
            return math.sqrt(a * a + b * b) + math.log(a, 2.0) + math.pi + math.atan2(a, b) + math.log10(b)
        '''),
    "namedtuple-field-of-a-builtin": src('''
        @torch.jit.script
        def f(x: torch.Tensor):
            return x.max(dim=1).values + x.sort(1).indices
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


def test_a_range_over_a_module_container_length_is_not_an_unrolled_loop(lint_source):
    # torch unrolls `for m in self.blocks`, not `for i in range(len(self.blocks))`: the body keeps the types it had
    source = (
        "import torch\nimport torch.nn as nn\n\n\nclass M(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.blocks = nn.ModuleList([nn.Linear(4, 4)])\n\n"
        "    def forward(self, x):\n        sizes = []\n        for i in range(len(self.blocks)):\n"
        "            x = torch.relu(x)\n            sizes.append(x.size(0))\n        return x\n"
    )
    assert [(f.code, f.location.row) for f in lint_source(source) if f.code == "JIT210"] == [("JIT210", 14)]


def test_a_list_of_none_in_one_branch_does_not_unify_with_a_list_of_int(lint_source):
    # typing list displays by their elements (for mixed lists) must keep `[None]` a List[NoneType]
    source = (
        "import torch\n\n\n@torch.jit.script\ndef f(x: bool) -> int:\n    if x:\n        y = [1]\n"
        "    else:\n        y = [None]\n    return len(y)\n"
    )
    assert [(f.code, f.location.row) for f in lint_source(source) if f.severity == "error"] == [("JIT701", 6)]


def test_an_interface_stub_is_a_declaration(lint_source):
    """An `@torch.jit.interface` module's `pass` methods declare; torch compiles no body there (JIT222 silent)."""
    source = textwrap.dedent("""
        import torch
        import torch.nn as nn


        @torch.jit.interface
        class Step(nn.Module):
            def forward(self, x: torch.Tensor) -> torch.Tensor:
                pass
    """)
    assert [f.code for f in lint_source(source) if f.code == "JIT222"] == []

"""TorchScript's typing rules where jitlint follows the frontend's types: tuples (JIT220), annotated assignments
(JIT221), returns (JIT208, JIT222), values that cannot be iterated or indexed (JIT223), Tensor methods that do not
exist (JIT224), `math` functions TorchScript has no builtin for (JIT402), list and dict element types (JIT416).
Every case is a small module of our own, checked both ways: jitlint's findings, and torch 2.13.
"""

import textwrap

import pytest

from torch_oracle import points_at, script_source

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
}

LOOKALIKES = {
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

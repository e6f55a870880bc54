# case: bare `tuple` and `list` annotations that torch accepts: measured with `len()`, passed on to a parameter of
#   the same annotation (a typed tuple is a bare `tuple`), tested with `isinstance`, returned
# torch: accepts
from typing import Tuple

import torch


def count(x: torch.Tensor, shape: tuple) -> int:
    return len(shape)


def same(shape: tuple) -> tuple:
    return shape


@torch.jit.script
def entry(x: torch.Tensor, values: list, shape: Tuple[int, int], other: tuple):
    n = len(values) + count(x, shape) + count(x, (x, 1.0)) + count(x, other)
    if isinstance(other, tuple):
        n = n + 1
    kept = same(other)
    print(kept)
    return x + n

# case: `*` of values the typer types as lists (a `List[int]` parameter, a list built by `+`, `list(x.shape)`, `[1] * n`): torch needs a tuple to know the length
# torch: rejects
# torch-error: cannot statically infer the expected size of a list
from typing import List

import torch
import torch.nn as nn


def pad_with_ones(x: torch.Tensor, before: int, sizes: List[int]):
    shape = [1] * before + list(x.shape)
    y = x.view(*shape)  # error: JIT116
    return y.expand(*sizes)  # error: JIT116


class M(nn.Module):
    def forward(self, x, sizes: List[int]):
        return pad_with_ones(x, 2, sizes)

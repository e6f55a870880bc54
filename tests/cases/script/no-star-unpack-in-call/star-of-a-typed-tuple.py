# case: `*` of values the typer types as tuples (a `Tuple[int, int]` parameter, a tuple built by `+`): a tuple has a static length
# torch: accepts
from typing import Tuple

import torch
import torch.nn as nn


def pad_with_ones(x: torch.Tensor, sizes: Tuple[int, int]):
    shape = (1, 1) + sizes
    y = x.view(*shape)
    return y.expand(*sizes)


class M(nn.Module):
    def forward(self, x, sizes: Tuple[int, int]):
        return pad_with_ones(x, sizes)

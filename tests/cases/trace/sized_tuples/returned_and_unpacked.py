# case: sizes a submodule returns in a tuple (`return x, (H, W)`), unpacked in a helper and converted there: frozen
# torch: changes
# inputs: (torch.ones(1, 1, 8, 8),)
# inputs2: (torch.ones(1, 1, 12, 12),)
from typing import Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


def positions(hw: Tuple[int, int]) -> torch.Tensor:
    h, w = hw
    n = int(max(h, w))  # warning: TRC201, TRC203
    return torch.arange(n)


class Pool(nn.Module):
    def forward(self, x):
        x = F.max_pool2d(x, 2)
        H, W = x.shape[2:]
        return x, (H, W)


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool = Pool()

    def forward(self, x):
        x, hw = self.pool(x)
        return x.sum() + positions(hw).sum()

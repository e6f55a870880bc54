# case: tuple unpacked sequential called with a list (seen in timm)
# torch: rejects
from typing import Any, Dict, List, Optional, Tuple, Union

import torch
import torch.nn as nn
import torch.nn.functional as F


class SequentialList(nn.Sequential):
    def forward(self, x) -> torch.Tensor:
        for module in self:
            x = module(x)
        return x


class Net(nn.Module):
    def __init__(self, incre_only: bool = False):
        super().__init__()
        self.transition = nn.ModuleList([nn.Identity(), nn.Identity()])
        self.stage, channels = self._make_stage(4)
        self.heads, self.downs = self._make_head(channels, incre_only)

    def _make_stage(self, channels: int):
        modules = [nn.Identity()]
        return SequentialList(*modules), channels

    def _make_head(self, channels: int, incre_only: bool):
        heads = nn.ModuleList([nn.Linear(channels, channels) for _ in range(3)])
        if incre_only:
            return heads, None
        downs = []
        for i in range(2):
            downs.append(nn.Linear(channels, channels))
        downs = nn.ModuleList(downs)
        return heads, downs

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xl = [t(x) for t in self.transition]
        y = self.stage(xl)  # error: JIT202
        return x

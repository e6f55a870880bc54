# case: tuple unpacked modulelist or none indexed under a guard (seen in timm)
# torch: accepts
from typing import Any, Dict, List, Optional, Tuple, Union

import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self, incre_only: bool = True):
        super().__init__()
        self.heads, self.downs = self._make_head(4, incre_only)

    def _make_head(self, channels: int, incre_only: bool):
        heads = nn.ModuleList([nn.Linear(channels, channels) for _ in range(3)])
        if incre_only:
            return heads, None
        return heads, nn.ModuleList([nn.Linear(channels, channels) for _ in range(2)])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.downs is None:
            return x
        for i, head in enumerate(self.heads):
            if i > 0:
                x = self.downs[i - 1](x)
        return x

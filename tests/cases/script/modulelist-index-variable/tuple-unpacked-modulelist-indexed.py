# case: tuple unpacked modulelist indexed (seen in timm)
# torch: rejects
from typing import Any, Dict, List, Optional, Tuple, Union

import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads, self.downs = self._make_head(4)

    def _make_head(self, channels: int):
        heads = nn.ModuleList([nn.Linear(channels, channels) for _ in range(3)])
        downs = []
        for i in range(2):
            downs.append(nn.Linear(channels, channels))
        downs = nn.ModuleList(downs)
        return heads, downs

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for i, head in enumerate(self.heads):
            if i > 0:
                x = self.downs[i - 1](x)  # error: JIT301
        return x

# case: tuple unpacked local rebound in a loop (seen in timm)
# torch: accepts
from typing import Any, Dict, List, Optional, Tuple, Union

import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads, self.width = self._make_head(4)

    def _make_head(self, channels: int):
        heads = nn.ModuleList([nn.Linear(channels, channels) for _ in range(3)])
        width = 4
        for i in range(2):
            width = width * 2
        return heads, width

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for head in self.heads:
            x = head(x)
        return x * self.width

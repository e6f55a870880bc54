# case: values (a literal, a call, a local) stored in a dict item, a tensor item and a module attribute compile
# torch: accepts
from typing import Dict

import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.n = 1

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        table: Dict[str, torch.Tensor] = {}
        table["a"] = torch.relu(x)
        x[0] = 3
        size = x.size(0)
        self.n = size
        return table["a"] * self.n

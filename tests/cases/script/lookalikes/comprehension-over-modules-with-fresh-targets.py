# case: comprehensions over a ModuleList whose targets the function binds nowhere before them (a loop after the
#   comprehension may use the same name)
# torch: accepts
from typing import List

import torch
from torch import nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(8, 8), nn.Linear(8, 8)])

    def forward(self, x: torch.Tensor) -> List[torch.Tensor]:
        out = [layer(x) for layer in self.blocks]
        for layer in self.blocks:
            x = layer(x)
        return out + [block(x) for block in self.blocks]

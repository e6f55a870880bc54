# case: a list comprehension over a ModuleList whose target names a variable the function bound before (here the
#   target of an earlier loop over the same modules): a module is no first-class value, and the comprehension's
#   loop is a block of the function
# torch: rejects
# torch-error: Cannot re-assign 'layer' to a value of type module
from typing import List

import torch
from torch import nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(8, 8), nn.Linear(8, 8)])

    def forward(self, x: torch.Tensor) -> List[torch.Tensor]:
        for layer in self.blocks:
            x = layer(x)
        return [layer(x) for layer in self.blocks]  # error: JIT706

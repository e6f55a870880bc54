# case: a variable set to None, then filled under `if y is None:` in a loop over `enumerate` of a ModuleList inside
#   a loop over a ModuleList of ModuleLists (timm hrnet's fuse): torch unrolls both loops and folds each `is None`, so
#   the module call after the loop gets a Tensor
# torch: accepts
from typing import List
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.fuse_layers = nn.ModuleList([nn.ModuleList([nn.Identity(), nn.Identity()]) for _ in range(2)])
        self.fuse_act = nn.ReLU()

    def forward(self, x: List[torch.Tensor]) -> List[torch.Tensor]:
        x_fuse = []
        for i, fuse_outer in enumerate(self.fuse_layers):
            y = None
            for j, f in enumerate(fuse_outer):
                if y is None:
                    y = f(x[j])
                else:
                    y = y + f(x[j])
            x_fuse.append(self.fuse_act(y))
        return x_fuse

# case: `self.n = self.n + 1` with an int: the same loop
# torch: recompiles
# calls: 12
# recompile-limit: hit
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.n = 0

    def forward(self, x):
        self.n = self.n + 1  # warning: DYN201
        return x + torch.tensor([float(self.n)])

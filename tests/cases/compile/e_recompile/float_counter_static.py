# case: with `dynamic = false` a float attribute counted in forward loops too
# torch: recompiles
# calls: 12
# settings: dynamic=false
# recompile-limit: hit
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.n = 0.0

    def forward(self, x):
        self.n = self.n + 1  # warning: DYN201
        return x * self.n

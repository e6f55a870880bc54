# case: a float attribute becomes dynamic after one recompile: no loop
# torch: recompiles
# hazard: no
# calls: 12
# recompile-limit: not hit
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.n = 0.0

    def forward(self, x):
        self.n = self.n + 1  # unreported: a float attribute becomes dynamic after one recompile
        return x * self.n

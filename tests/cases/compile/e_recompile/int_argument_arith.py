# case: an int argument in arithmetic becomes dynamic after one recompile
# torch: recompiles
# hazard: no
# inputs: (torch.randn(4, 3), i + 1)
# calls: 12
# recompile-limit: not hit
# recompiles: 1
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, n: int):
        return x * n  # unreported: an int argument becomes dynamic after one recompile

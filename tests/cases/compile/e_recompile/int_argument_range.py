# case: `range(n)` of an int argument: specialised to each value
# torch: recompiles
# inputs: (torch.randn(4, 3), i + 1)
# calls: 12
# recompile-limit: hit
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, n: int):
        for _ in range(n):  # warning: DYN204
            x = x * 2
        return x

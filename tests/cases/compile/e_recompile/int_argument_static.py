# case: with `dynamic = false` an int argument is specialised to each value
# torch: recompiles
# inputs: (torch.randn(4, 3), i + 1)
# calls: 12
# settings: dynamic=false
# recompile-limit: hit
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, n: int):  # warning: DYN204
        return x * n

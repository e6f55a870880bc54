# case: an int argument indexing a Python list of 10 values: the limit
# torch: recompiles
# inputs: (torch.randn(4, 3), i % 10)
# calls: 12
# recompile-limit: hit
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.scales = [0.1 * j for j in range(10)]

    def forward(self, x, k: int):
        return x * self.scales[k]  # warning: DYN204

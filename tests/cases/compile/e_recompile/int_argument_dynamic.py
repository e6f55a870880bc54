# case: with `dynamic = true` an int argument is symbolic from the first call
# torch: accepts
# inputs: (torch.randn(4, 3), i + 1)
# calls: 12
# settings: dynamic=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, n: int):
        return x * n

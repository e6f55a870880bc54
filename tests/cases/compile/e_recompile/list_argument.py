# case: a list argument of a new length on each call
# torch: recompiles
# inputs: ([torch.randn(3) for _ in range(i + 2)],)
# calls: 12
# recompile-limit: hit
from typing import List
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, xs: List[torch.Tensor]):  # warning: DYN203
        return torch.stack(xs).sum(0)

# case: an int argument indexing an `nn.ModuleList`: one compile per value
# torch: recompiles
# inputs: (torch.randn(4, 3), i % 4)
# calls: 8
# recompile-limit: not hit
# recompiles: 3
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleList([nn.Linear(3, 3) for _ in range(4)])

    def forward(self, x, k: int):
        return self.heads[k](x)  # warning: DYN204

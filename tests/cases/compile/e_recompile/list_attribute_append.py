# case: a list attribute appended to in forward: guarded on its length
# torch: recompiles
# calls: 12
# recompile-limit: hit
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.history = []

    def forward(self, x):
        self.history.append(x.detach())  # warning: DYN201
        return x * 2

# case: an int attribute counted in forward: a recompile per call up to the limit
# torch: recompiles
# calls: 12
# recompile-limit: hit
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.step = 0

    def forward(self, x):
        self.step += 1  # warning: DYN201
        return x * 2

# case: an int global counted in forward
# torch: recompiles
# calls: 12
# recompile-limit: hit
import torch
import torch.nn as nn


CALLS = 0


class M(nn.Module):
    def forward(self, x):
        global CALLS
        CALLS += 1  # warning: DYN201
        return x * 2

# case: forward reads `self.last` (the previous call's value) and then writes it: the trace bakes the value read
# torch: changes
# inputs: (torch.ones(2, 3),)
# inputs2: (torch.ones(2, 3) * 5,)
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.last = 1.0

    def forward(self, x):
        out = x * self.last
        self.last = 2.0  # warning: TRC207
        return out

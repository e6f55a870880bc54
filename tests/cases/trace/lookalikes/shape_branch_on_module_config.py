# case: a branch on a constructor setting, not on the input
# torch: accepts
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = 2

    def forward(self, x):
        if self.scale > 1:
            x = x * self.scale
        return x

# case: `x.data`: the example input is recorded as a constant
# torch: changes
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        return x.data * 2  # warning: TRC212

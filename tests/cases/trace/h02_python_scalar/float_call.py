# case: `float(tensor)`: baked
# torch: changes
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        m = float(x.mean())  # warning: TRC203
        return x - m

# case: `.item()` used as a factor: the example's value is baked
# torch: changes
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        s = x.sum().item()  # warning: TRC203
        return x * s

# case: `torch.split(x, x.size(1) // 2)`: `int()` inside torch, warning hidden
# torch: breaks
# inputs: (torch.randn(2, 8),)
# inputs2: (torch.randn(2, 12),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        a, b = torch.split(x, x.size(1) // 2, dim=1)  # warning: TRC206
        return a * b

# case: `zeros_like` and `new_ones` follow the input
# torch: accepts
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3, dtype=torch.float64),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        return torch.zeros_like(x) + x.new_ones(x.shape)

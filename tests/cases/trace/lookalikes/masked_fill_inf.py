# case: `masked_fill(..., float("-inf"))`
# torch: accepts
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        return x.masked_fill(x < 0, float("-inf"))

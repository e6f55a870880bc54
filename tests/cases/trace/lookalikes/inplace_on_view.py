# case: an in-place op on a view of an input
# torch: accepts
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        y = x[0]
        y.mul_(0)
        return x

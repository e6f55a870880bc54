# case: a forward comparing a size with an unannotated parameter it never slices with, called with a tensor: the
#   comparison is a tensor, and `if` decides on its value
# torch: breaks
# inputs: (torch.rand(4, 8, 8), torch.tensor(5))
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, j):
        if x.shape[-1] >= j:  # warning: DYN101
            return x * 2
        return x

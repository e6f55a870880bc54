# case: a forward slicing with its own unannotated parameters, called with Python ints (sizes): static bounds, no break
# torch: accepts
# inputs: (torch.rand(4, 8, 8), 3, 5)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, i, j):
        return x[..., -i:, -j:] * 2

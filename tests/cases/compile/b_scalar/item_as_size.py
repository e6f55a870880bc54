# case: `.item()` as a size
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        n = x.shape[0] + x.sum().abs().long() % 2
        return torch.zeros(n.item()) + 1  # warning: DYN102

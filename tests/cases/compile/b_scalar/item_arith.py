# case: `.item()` used as a factor breaks by default
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        v = x.sum().item()  # warning: DYN102
        return x * v

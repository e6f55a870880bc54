# case: `nn.Parameter(...)` in forward
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        w = nn.Parameter(torch.ones(3))  # warning: DYN108
        return x * w

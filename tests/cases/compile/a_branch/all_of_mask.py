# case: Python's `all()` over a bool tensor takes the truth value of each element: a data-dependent branch
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        keep = x[:, 0] > 0
        if all(keep):  # warning: DYN101
            return x * 2
        return x - 1

# case: three data-dependent lines: three breaks (the one in the middle is a scalar read)
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if x.sum() > 0:  # warning: DYN101
            x = x + 1
        k = int(x.max().item() * 10)  # warning: DYN102
        x = x * k
        if (x > 1).any():  # warning: DYN101
            x = x - 1
        return x

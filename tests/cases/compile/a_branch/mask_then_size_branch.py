# case: a mask breaks by default; the size branch after it does not
# torch: breaks
# inputs: (torch.randn(4 + i, 3),)
# calls: 3
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        y = x[x > 0]  # warning: DYN103
        if y.shape[0] > 2:
            return y * 2
        return y

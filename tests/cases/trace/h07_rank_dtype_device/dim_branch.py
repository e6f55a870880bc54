# case: `if x.dim() == 3`: `dim()` is a Python int, frozen with no warning
# torch: changes
# inputs: (torch.randn(2, 5, 3),)
# inputs2: (torch.randn(2, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if x.dim() == 3:  # warning: TRC201
            x = x.mean(1)
        return x * 2

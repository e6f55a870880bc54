# case: `if x.ndim == 4`: frozen with no warning
# torch: changes
# inputs: (torch.randn(2, 3, 4, 4),)
# inputs2: (torch.randn(2, 3, 4),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if x.ndim == 4:  # warning: TRC201
            x = x.mean(1)
        return x.sum(-1)

# case: `if len(x.shape) == 3`: frozen with no warning
# torch: changes
# inputs: (torch.randn(2, 5, 3),)
# inputs2: (torch.randn(2, 3, 5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if len(x.shape) == 3:  # warning: TRC201
            x = x.unsqueeze(1)
        return x.sum(1)

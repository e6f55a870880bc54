# case: a size output comes back as a tensor
# torch: changes
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        return x * 2, x.shape[0]  # warning: TRC211

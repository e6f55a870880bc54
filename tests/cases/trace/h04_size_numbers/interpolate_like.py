# case: `F.interpolate(x, size=y.shape[-2:])`
# torch: accepts
# inputs: (torch.randn(1, 2, 4, 4), torch.randn(1, 2, 8, 8))
# inputs2: (torch.randn(1, 2, 4, 4), torch.randn(1, 2, 6, 10))
import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x, y):
        return F.interpolate(x, size=y.shape[-2:])

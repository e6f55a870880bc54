# case: `F.interpolate(scale_factor=2.0)`
# torch: accepts
# inputs: (torch.randn(1, 2, 4, 4),)
# inputs2: (torch.randn(1, 2, 6, 5),)
import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x):
        return F.interpolate(x, scale_factor=2.0)

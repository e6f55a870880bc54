# case: `if mask is not None` with the mask given on every call
# torch: accepts
# inputs: (torch.randn(8, 3), torch.ones(8, 3))
# inputs2: (torch.randn(5, 3), torch.zeros(5, 3))
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, mask):
        if mask is not None:
            x = x * mask
        return x

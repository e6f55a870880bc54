# case: `mask is not None` is decided from the argument; `mask.any()` on a mask that is passed is a tensor's value
# torch: breaks
# inputs: (torch.randn(4, 3), torch.ones(4, 3))
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, mask=None):
        if mask is not None and mask.any():  # warning: DYN101
            x = x * 2
        y = x if mask is None else x * mask
        return y + 1

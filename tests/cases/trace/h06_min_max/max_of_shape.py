# case: `max(0, 16 - x.size(1))`: the comparison is frozen, the operand stays traced
# torch: changes
# inputs: (torch.randn(2, 10, 4),)
# inputs2: (torch.randn(2, 20, 4),)
import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x):
        pad = max(0, 16 - x.size(1))  # warning: TRC201
        return F.pad(x, (0, 0, 0, pad))

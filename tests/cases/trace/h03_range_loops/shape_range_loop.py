# case: `range(x.size(1))`: unrolled to the example's count, with no warning
# torch: changes
# inputs: (torch.randn(4, 3),)
# inputs2: (torch.randn(4, 6),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        out = x[:, 0]
        for i in range(1, x.size(1)):  # warning: TRC202
            out = out + x[:, i]
        return out

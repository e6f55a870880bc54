# case: `range(int(n))`: the loop count is frozen
# torch: changes
# inputs: (torch.randn(8, 3), torch.tensor(3))
# inputs2: (torch.randn(8, 3), torch.tensor(1))
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, n):
        for _ in range(int(n)):  # warning: TRC202
            x = x * 2
        return x

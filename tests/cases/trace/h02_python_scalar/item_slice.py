# case: `x[:n.item()]`: the bound is baked
# torch: changes
# inputs: (torch.randn(8, 3), torch.tensor(4))
# inputs2: (torch.randn(8, 3), torch.tensor(2))
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, n):
        return x[: n.item()]  # warning: TRC203

# case: `if` on `.item()`: the value is read once and the branch frozen
# torch: changes
# inputs: (torch.ones(8, 3),)
# inputs2: (torch.full((5, 3), 0.25),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if x.max().item() > 0.5:  # warning: TRC201
            return x * 2
        return x

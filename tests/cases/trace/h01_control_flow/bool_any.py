# case: `if bool((x < 0).any())`: frozen branch
# torch: changes
# inputs: (torch.ones(8, 3),)
# inputs2: (-torch.ones(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if bool((x < 0).any()):  # warning: TRC201
            return x.abs()
        return x * 2

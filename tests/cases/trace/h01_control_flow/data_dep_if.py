# case: `if` on a tensor's value: only the branch the example takes is recorded
# torch: changes
# inputs: (torch.ones(8, 3),)
# inputs2: (-2 * torch.ones(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if x.sum() > 0:  # warning: TRC201
            return x * 2
        return x - 1

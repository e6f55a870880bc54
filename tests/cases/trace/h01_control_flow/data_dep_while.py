# case: `while` on a tensor's value: the loop count of the example is recorded
# torch: changes
# inputs: (torch.full((8, 3), 0.1),)
# inputs2: (torch.full((8, 3), 5.0),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        while x.norm() < 10:  # warning: TRC202
            x = x * 2
        return x

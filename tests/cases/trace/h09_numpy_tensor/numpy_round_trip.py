# case: `torch.from_numpy(x.numpy() * 2)`: the example is baked as a constant
# torch: changes
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        return torch.from_numpy(x.numpy() * 2)  # warning: TRC204

# case: `int(x.shape[0])`: the batch size is baked
# torch: breaks
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        n = int(x.shape[0])  # warning: TRC203
        return x + torch.zeros(n, 1)

# case: the size bound to a name, then looped over
# torch: changes
# inputs: (torch.randn(4, 3),)
# inputs2: (torch.randn(4, 5),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        n = x.shape[1]
        out = x[:, 0]
        for i in range(1, n):  # warning: TRC202
            out = out * x[:, i]
        return out

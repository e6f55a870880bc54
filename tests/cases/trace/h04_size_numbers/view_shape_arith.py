# case: `x.view(x.size(0) // 2, -1)`: arithmetic on traced sizes is recorded
# torch: accepts
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(6, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        return x.view(x.size(0) // 2, -1)

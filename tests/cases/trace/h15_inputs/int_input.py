# case: an `int` input cannot be traced
# torch: rejects
# torch-error: cannot be traced
# inputs: (torch.randn(8, 3), 2)
# inputs2: (torch.randn(5, 3), 3)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, k: int):  # error: TRC104
        return x * k

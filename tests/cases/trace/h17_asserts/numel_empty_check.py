# case: `if x.numel() == 0`: frozen (the output happens to match on an empty input)
# torch: accepts
# inputs: (torch.randn(4, 3),)
# inputs2: (torch.randn(0, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if x.numel() == 0:  # warning: TRC201
            return x
        return x * 2

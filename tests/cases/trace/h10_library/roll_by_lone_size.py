# case: `torch.roll(x, x.shape[-1] // 2, -1)`: one size given alone to the integer-list `shifts` is read as a plain
#       number: the example's shift is recorded, silently
# torch: changes
# inputs: (torch.randn(2, 4),)
# inputs2: (torch.randn(2, 6),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        return torch.roll(x, x.shape[-1] // 2, -1)  # warning: TRC206

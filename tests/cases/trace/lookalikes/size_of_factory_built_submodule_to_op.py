# case: the sizes of what a submodule built by a project factory returns, given to slicing and `interpolate`:
#       they stay traced
# torch: accepts
# inputs: (torch.ones(1, 2, 5, 5),)
# inputs2: (torch.ones(2, 2, 8, 8),)
import torch
import torch.nn as nn
import torch.nn.functional as F


def shrinking_block(channels):
    return nn.Conv2d(channels, channels, 3)


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = shrinking_block(2)

    def forward(self, x):
        y = self.body(x)
        diff = x.size(-1) - y.size(-1)
        x = x[:, :, diff:, diff:]
        return x + F.interpolate(y, size=(y.size(-2), y.size(-1)))

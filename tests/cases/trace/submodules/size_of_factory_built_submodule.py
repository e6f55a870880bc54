# case: the sizes of what a submodule returns, the submodule built by a project factory function (its class
#       unknown where it is called), compared in an `if`: the branch of the example is frozen
# torch: changes
# inputs: (torch.ones(1, 2, 5, 5),)
# inputs2: (torch.ones(1, 2, 4, 4),)
import torch
import torch.nn as nn


def shrinking_block(channels):
    return nn.Conv2d(channels, channels, 3)


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = shrinking_block(2)

    def forward(self, x):
        y = self.body(x)
        if y.size(-1) % 2 == 1:  # warning: TRC201
            y = y * 2
        return y

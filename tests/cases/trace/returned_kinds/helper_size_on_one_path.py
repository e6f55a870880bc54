# case: a helper that returns a constant on one path and a comparison of a traced size on the other, its result
#       tested by the caller's `if`: on the path the example takes the branch is frozen
# torch: changes
# inputs: (torch.ones(1, 4),)
# inputs2: (torch.ones(1, 6),)
import torch
import torch.nn as nn


def use_short_path(x, forced: bool):
    if forced:
        return False
    return x.shape[-1] <= 4


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.forced = False

    def forward(self, x):
        if use_short_path(x, self.forced):  # warning: TRC201
            return x * 2
        return x

# case: a size passed to a plain helper that returns a comparison of it: the helper's result is a traced bool,
#       and the caller's `assert` on it is checked once and dropped
# torch: changes
# inputs: (torch.ones(1, 3, 8),)
# inputs2: (torch.ones(2, 3, 6),)
import torch
import torch.nn as nn


def fits(length, step):
    return (length % step) == 0


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.step = 4

    def forward(self, x):
        *_, n = x.shape
        assert n > 0 and fits(n, self.step), "length must be a multiple of the step"  # warning: TRC201
        return x * 2

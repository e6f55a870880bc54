# case: sizes spread into a display with a module setting (`h, w, k = *x.shape[-2:], self.k`) and compared in an
#       `if`: the branch of the example is frozen
# torch: changes
# inputs: (torch.ones(1, 2, 4, 4),)
# inputs2: (torch.ones(1, 2, 6, 6),)
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.window = 4

    def forward(self, x):
        height, width, window = *x.shape[-2:], self.window
        if height % window == 0:  # warning: TRC201
            return x * 2
        return x

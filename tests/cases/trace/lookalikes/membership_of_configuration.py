# case: `in` on a module's configuration string and on a keyword's name: plain Python values, the same for every
#       input: nothing is frozen
# torch: accepts
# inputs: (torch.ones(2, 4),)
# inputs2: (torch.ones(3, 6),)
import torch
import torch.nn as nn

MODES = ("mean", "avg")


class M(nn.Module):
    def __init__(self, mode="mean"):
        super().__init__()
        self.mode = mode

    def forward(self, x):
        if self.mode in MODES:
            x = x.mean(dim=-1, keepdim=True) + x
        if self.mode not in ["max", "sum"]:
            x = x * 2
        return x

# case: a local holding None, and the constant None, tested for truth: torch has no `aten::Bool` of None
# torch: rejects
# torch-error: Could not cast value of type NoneType to bool
import torch
from torch import nn


class M(nn.Module):
    def forward(self, x):
        v = None
        if not v:  # error: JIT416
            x = x + 1
        y = x if None else x + 1  # error: JIT416
        return y

# case: a module's forward whose unannotated parameter has a str default, compared with a str: the comparison of
#   a Tensor with a str fails before torch converts the default
# torch: rejects
# torch-error: Arguments for call are not valid
import torch
from torch import nn


class M(nn.Module):
    def forward(self, x, mode="mean"):  # error: JIT201
        if mode == "mean":  # error: JIT202
            return x.mean()
        return x

# case: the look-alike: a `False` literal in a conditional expression does not stop torch compiling its branches
# torch: rejects
# torch-error: python value of type 'int' cannot be used as a value
import torch
import torch.nn as nn

SIZE = 8


class M(nn.Module):
    def forward(self, x):
        return x if False else x + SIZE  # error: JIT415

# case: a method of a submodule the module gets as a constructor argument (`self.block.combine(...)`), built where
#       the project builds the model (`kwargs.pop("block", None) or Combine()`): the tracer runs it and freezes its branch
# torch: changes
# inputs: (torch.ones(2, 8),)
# inputs2: (torch.ones(2, 3),)
import torch
import torch.nn as nn


class Combine(nn.Module):
    def combine(self, a, b):
        if a.size(-1) > 4:  # warning: TRC201
            return a + b
        return a - b


class Flow(nn.Module):
    def __init__(self, block):
        super().__init__()
        self.block = block

    def forward(self, x):
        return self.block.combine(x, x * 2)


def flow(**kwargs):
    block = kwargs.pop("block", None) or Combine()
    return Flow(block=block)


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.flow = flow()

    def forward(self, x):
        return self.flow(x)

# case: `__init__` stores None, then calls a method that stores a Parameter (through another method): torch
#   types the attribute by what the instance holds when `__init__` returns, a Tensor (asteroid's SingleSrcPMSQE)
# torch: accepts
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = None
        self.weight = None
        self.populate()

    def populate(self):
        self.scale = nn.Parameter(torch.ones(4), requires_grad=False)
        self.fill()

    def fill(self):
        self.weight = nn.Parameter(torch.ones(4, 4), requires_grad=False)

    def forward(self, x):
        return torch.matmul(x, self.weight) * self.scale

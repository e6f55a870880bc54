# case: `__init__` stores None and never calls the method that stores a Parameter: the instance holds None, which
#   torch types NoneType, and `x * None` has no overload
# torch: rejects
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = None

    def populate(self):
        self.scale = nn.Parameter(torch.ones(4), requires_grad=False)

    def forward(self, x):
        return x * self.scale  # error: JIT416

# case: a buffer registered as None, given a Tensor by a method `__init__` calls (by assignment, or registered
#   again): torch types what the instance holds when `__init__` returns, a Tensor
# torch: accepts
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("table", None)
        self.register_buffer("window", None)
        self.build()

    def build(self):
        self.table = torch.ones(4)
        self.register_buffer("window", torch.ones(4))

    def forward(self, x):
        return x * self.table * self.window

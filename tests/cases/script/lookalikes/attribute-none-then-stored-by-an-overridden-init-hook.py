# case: a base `__init__` stores None and calls a hook the subclass overrides to store a Parameter: the
#   override runs, so the subclass's instance holds a Tensor when `__init__` returns
# torch: accepts
import torch
import torch.nn as nn


class Base(nn.Module):
    def __init__(self):
        super().__init__()
        self.table = None
        self.build()

    def build(self):
        pass


class M(Base):
    def build(self):
        self.table = nn.Parameter(torch.ones(4))

    def forward(self, x):
        return x * self.table

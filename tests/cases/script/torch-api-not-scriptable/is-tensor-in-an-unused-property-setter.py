# case: a property listed in `__jit_unused_properties__` is not compiled, its setter neither
# torch: accepts
import torch
import torch.nn as nn


class Scale(nn.Module):
    __jit_unused_properties__ = ["scale"]

    def __init__(self):
        super().__init__()
        self.raw = nn.Parameter(torch.zeros(1))

    @property
    def scale(self):
        return self.raw.exp()

    @scale.setter
    def scale(self, value):
        if not torch.is_tensor(value):
            value = torch.as_tensor(value)
        self.raw.data.copy_(value.log())

    def forward(self, x):
        return x * self.raw.exp()

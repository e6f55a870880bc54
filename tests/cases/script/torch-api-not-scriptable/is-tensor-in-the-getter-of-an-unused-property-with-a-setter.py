# case: a property named in `__jit_unused_properties__` is not compiled, neither its getter nor its setter
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
        if not torch.is_tensor(self.raw):
            return torch.ones(1)
        return self.raw.exp()

    @scale.setter
    def scale(self, value: torch.Tensor):
        self.raw.data.copy_(value.log())

    def forward(self, x):
        return x * self.raw.exp()

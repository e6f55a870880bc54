# case: a property's deleter is not compiled (torch compiles its getter and setter only), its getter is
# torch: accepts
import torch
import torch.nn as nn


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.raw = nn.Parameter(torch.zeros(1))

    @property
    def scale(self):
        return self.raw.exp()

    @scale.setter
    def scale(self, value: torch.Tensor):
        self.raw.data.copy_(value.log())

    @scale.deleter
    def scale(self):
        if torch.is_tensor(self.raw):
            self.raw.data.zero_()

    def forward(self, x):
        return x * self.scale

# case: a module property with a setter, read and assigned in compiled code (torch calls the getter and the setter;
#   a Tensor given for the float parameter converts implicitly)
# torch: accepts
import torch
from torch import nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self._s = 1.0

    @property
    def scale(self) -> float:
        return self._s

    @scale.setter
    def scale(self, v: float) -> None:
        self._s = v

    def forward(self, x):
        a = self.scale
        self.scale = 2.0
        self.scale = x
        return x * a

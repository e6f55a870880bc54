# case: a module property's setter called by an assignment in compiled code, given a value its parameter does not
#   take
# torch: rejects
# torch-error: Expected a value of type 'float' for argument 'v' but instead found type 'str'
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
        self.scale = "a"  # error: JIT416
        return x

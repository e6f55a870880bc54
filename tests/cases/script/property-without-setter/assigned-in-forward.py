# case: a module property without a setter assigned in compiled code
# torch: rejects
# torch-error: Tried to set read-only attribute: scale
import torch
from torch import nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self._s = 1.0

    @property
    def scale(self):
        return self._s

    def forward(self, x):
        self.scale = 2.0  # error: JIT620
        return x

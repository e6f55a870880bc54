# case: a class-level `float` annotation and `None` in `__init__`
# torch: rejects
# torch-error: Could not cast attribute 'scale' to type float
# torch-line: none
import torch
import torch.nn as nn


class M(nn.Module):
    scale: float

    def __init__(self):
        super().__init__()
        self.scale = None

    def forward(self, x):
        print(self.scale)  # error: JIT603
        return x

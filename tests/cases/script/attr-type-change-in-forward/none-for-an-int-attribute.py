# case: an int attribute `__init__` set assigned None in compiled code: torch typed the attribute by its value (int),
#   not Optional
# torch: rejects
# torch-error: Wrong type for attribute assignment. Expected int but got NoneType
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.groups = 8
        self.name = "a"
        self.flag = True
        self.eps = 0.5

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.groups = None  # error: JIT610
        return x

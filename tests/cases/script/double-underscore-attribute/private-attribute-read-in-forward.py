# case: a module attribute named `self.__x` (Python stores it as `_Cls__x`, the frontend reads `__x`) and one named
#   `self.__x__` (torch leaves instance attributes named `__...` out of the module's type), read in compiled code
# torch: rejects
import torch
import torch.nn as nn


class Mangled(nn.Module):
    def __init__(self):
        super().__init__()
        self.__length: int = 3

    @property
    def length(self) -> int:
        return self.__length  # error: JIT619

    def forward(self, x):
        return x * self.__length  # error: JIT619


class Dunder(nn.Module):
    def __init__(self):
        super().__init__()
        self.__scale__ = 2.0

    def forward(self, x):
        return x * self.__scale__  # error: JIT619

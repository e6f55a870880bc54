# case: attributes `__init__` stores from unannotated parameters, given ints by every construction site (one through
#   the builder's own parameter, one by the default), and a parameter the builders give an int and a float (torch
#   types each instance by its own value: two module types, each compiled with its own)
# torch: accepts
import torch
import torch.nn as nn


class Repeat(nn.Module):
    def __init__(self, times=1, extra=1, scale=1):
        super().__init__()
        self.times = times
        self.extra = extra
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for _ in range(self.times + self.extra):
            x = x * self.scale
        return x


class Net(nn.Module):
    def __init__(self, depth=2):
        super().__init__()
        self.first = Repeat(depth)
        self.second = Repeat(times=depth * 2, extra=3, scale=0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.second(self.first(x))

# case: an attribute `__init__` stores from an unannotated parameter, used as an int: its default and every
#   construction site give a float, so torch types the attribute float (by the value the instance holds) and
#   rejects `range` of it
# torch: rejects
# torch-error: all inputs of range must be ints
import torch
import torch.nn as nn


class Repeat(nn.Module):
    def __init__(self, times=0.5):
        super().__init__()
        self.times = times

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for _ in range(self.times):  # error: JIT418
            x = x + 1
        return x


class Net(nn.Module):
    def __init__(self, scale=0.5):
        super().__init__()
        self.first = Repeat(2.0)
        self.second = Repeat(times=scale * 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.second(self.first(x))

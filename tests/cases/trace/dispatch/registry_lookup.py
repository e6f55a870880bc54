# case: a function called through a registry of functions (a Mapping instance whose class holds a dict of them,
#       looked up by a method that returns `super().get(key, default)`): the tracer runs it, and freezes its branch
# torch: changes
# inputs: (torch.ones(2, 4),)
# inputs2: (torch.ones(2, 16),)
from collections import UserDict

import torch
import torch.nn as nn


def scaled_forward(module, q: torch.Tensor) -> torch.Tensor:
    if q.shape[-1] > 8:  # warning: TRC201
        return q * 2
    return q - 1


def eager_forward(module, q: torch.Tensor) -> torch.Tensor:
    return q - 1


class Functions(UserDict):
    _functions = {"scaled": scaled_forward}

    def __init__(self):
        super().__init__(self._functions)

    def get_interface(self, name, default):
        return super().get(name, default)


FUNCTIONS = Functions()


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.implementation = "scaled"

    def forward(self, x):
        function = FUNCTIONS.get_interface(self.implementation, eager_forward)
        return function(self, x)

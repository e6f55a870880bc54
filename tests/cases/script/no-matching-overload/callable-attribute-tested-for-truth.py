# case: `if self.fn:` where `__init__` stores a parameter annotated Optional[Callable] (None by default) or Callable
# torch: rejects
# torch-error: to bool
from typing import Callable, Optional

import torch
import torch.nn as nn
from torch import Tensor


def scale(a: Tensor, b: Tensor) -> Tensor:
    return a * b


class WeightedLoss(nn.Module):
    def __init__(self, weight_fn: Optional[Callable[[Tensor, Tensor], Tensor]] = None):
        super().__init__()
        self.weight_fn = weight_fn

    def forward(self, a, b):
        loss = a - b
        if self.weight_fn:  # error: JIT416
            loss = loss * self.weight_fn(a, b)
        return loss


class Gated(nn.Module):
    def __init__(self, gate: Callable = nn.Identity()):
        super().__init__()
        self.gate = gate

    def forward(self, x):
        if not self.gate:  # error: JIT416
            return x
        return self.gate(x)

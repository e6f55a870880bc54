# case: look-alikes torch scripts: an Optional[Callable] attribute tested `is not None`, an Optional[float] one tested for truth
# torch: accepts
from typing import Callable, Optional

import torch
import torch.nn as nn
from torch import Tensor


class WeightedLoss(nn.Module):
    def __init__(self, weight_fn: Optional[Callable[[Tensor, Tensor], Tensor]] = None, eps: Optional[float] = 0.1):
        super().__init__()
        self.weight_fn = weight_fn
        self.eps = eps

    def forward(self, a, b):
        loss = a - b
        if self.weight_fn is not None:
            loss = loss * self.weight_fn(a, b)
        if self.eps:
            loss = loss + 1.0
        return loss

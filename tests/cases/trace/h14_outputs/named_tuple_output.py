# case: a NamedTuple output comes back as a plain tuple
# torch: changes
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
from typing import NamedTuple

import torch
import torch.nn as nn


class Out(NamedTuple):
    logits: torch.Tensor
    hidden: torch.Tensor


class M(nn.Module):
    def forward(self, x):
        return Out(x * 2, x + 1)  # warning: TRC211

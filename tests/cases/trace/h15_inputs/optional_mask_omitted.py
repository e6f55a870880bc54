# case: an optional tensor argument left out of the example: dropped from the signature
# torch: breaks
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3), torch.zeros(5, 3))
from typing import Optional

import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, mask: Optional[torch.Tensor] = None):  # warning: TRC210
        if mask is not None:
            x = x * mask
        return x

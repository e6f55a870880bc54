# case: a `Tuple[Tensor, Tensor]` input
# torch: accepts
# inputs: ((torch.randn(2, 3), torch.randn(2, 3)),)
# inputs2: ((torch.randn(4, 3), torch.randn(4, 3)),)
from typing import Tuple

import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, xy: Tuple[torch.Tensor, torch.Tensor]):
        return xy[0] * xy[1]

# case: a `List[Tensor]` input: its length is frozen
# torch: breaks
# inputs: ([torch.randn(2, 3), torch.randn(2, 3)],)
# inputs2: ([torch.randn(2, 3), torch.randn(2, 3), torch.randn(2, 3)],)
from typing import List

import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, xs: List[torch.Tensor]):  # warning: TRC210
        out = xs[0]
        for x in xs[1:]:
            out = out + x
        return out

# case: a `Dict[str, Tensor]` input
# torch: accepts
# inputs: ({"a": torch.randn(2, 3), "b": torch.randn(2, 3)},)
# inputs2: ({"a": torch.randn(4, 3), "b": torch.randn(4, 3)},)
from typing import Dict

import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, d: Dict[str, torch.Tensor]):
        return d["a"] + d["b"]

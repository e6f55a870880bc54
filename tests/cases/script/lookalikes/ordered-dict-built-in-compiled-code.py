# case: `collections.OrderedDict()` in forward, annotated: torch builds a dict, and its (absent) arguments are
#   values
# torch: accepts
from collections import OrderedDict
from typing import Dict

import torch
from torch import nn


class M(nn.Module):
    def forward(self, x):
        d: Dict[str, torch.Tensor] = OrderedDict()
        d["a"] = x
        return d["a"]

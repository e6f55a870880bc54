# case: a local holding None and an Optional compared with `is None` / `is not None`, not tested for truth
# torch: accepts
from typing import Optional

import torch
from torch import nn


class M(nn.Module):
    def forward(self, x):
        v = None
        if v is None:
            x = x + 1
        w: Optional[torch.Tensor] = None
        if w is not None and bool(w.sum() > 0):
            x = x + w
        return x if w is None else x * 2

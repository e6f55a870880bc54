# case: optional early exit then read then rebound (seen in transformers)
# torch: accepts
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None):
        if mask is None:
            return x
        n = mask.size(0)
        mask = mask * 2
        return x[:n] * mask

# case: optional refined read then rebound (seen in transformers)
# torch: accepts
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None):
        if mask is not None:
            n = mask.size(0)
            x = x[:n]
        mask = torch.ones_like(x)
        return x * mask

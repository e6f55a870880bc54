# case: hasattr raise first (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self, cross: bool = False):
        super().__init__()
        if cross:
            self.cross = nn.Linear(4, 4)
            self.ln_cross = nn.LayerNorm(4)

    def forward(self, x, y: Optional[torch.Tensor] = None):
        if y is not None:
            if not hasattr(self, "cross"):
                raise ValueError("built without cross-attention")
            y = self.ln_cross(y)
            x = self.cross(y)
        return x

# case: optional refined before the call (seen in libraries beyond timm, torchvision and transformers)
# torch: accepts
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


def scale(x, s=None):
    return x

class M(nn.Module):
    def forward(self, x, m: Optional[torch.Tensor] = None):
        if m is not None:
            return scale(x, m)
        return x

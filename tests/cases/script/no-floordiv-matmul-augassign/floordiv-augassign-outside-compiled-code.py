# case: floordiv augassign outside compiled code (seen in libraries beyond timm, torchvision and transformers)
# torch: accepts
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self, size: int = 8):
        super().__init__()
        size //= 2
        self.size = size

    def forward(self, x):
        return x[..., :self.size]

# case: none default given a tensor (seen in libraries beyond timm, torchvision and transformers)
# torch: accepts
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class Up(nn.Module):
    def forward(self, x, size=None):
        if size is not None:
            return x * size
        return x

class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = Up()

    def forward(self, x):
        return self.up(x, x)

# case: hasattr guard (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self, use_bn: bool = False):
        super().__init__()
        if use_bn:
            self.bn = nn.BatchNorm2d(4)

    def forward(self, x):
        if hasattr(self, "bn"):
            x = self.bn(x)
        return x

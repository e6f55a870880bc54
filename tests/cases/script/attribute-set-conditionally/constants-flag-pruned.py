# case: constants flag pruned (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    __constants__ = ["use_bn"]

    def __init__(self, use_bn: bool = False):
        super().__init__()
        self.use_bn = use_bn
        if use_bn:
            self.bn = nn.BatchNorm2d(4)

    def forward(self, x):
        if self.use_bn:
            x = self.bn(x)
        return x

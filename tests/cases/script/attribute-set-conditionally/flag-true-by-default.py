# case: flag true by default (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self, c: int = 4, normalize: bool = True):
        super().__init__()
        self.normalize = normalize
        if normalize:
            self.bn = nn.BatchNorm2d(c)

    def forward(self, x):
        if self.normalize:
            x = self.bn(x)  # warning: JIT232
        return x

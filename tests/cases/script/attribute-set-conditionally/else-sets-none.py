# case: else sets none (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self, c: int = 4, normalize: bool = False):
        super().__init__()
        if normalize:
            self.bn = nn.BatchNorm2d(c)
        else:
            self.bn = None

    def forward(self, x):
        if self.bn is not None:
            x = self.bn(x)
        return x

# case: else sets identity (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self, c: int = 4, normalize: bool = False):
        super().__init__()
        self.normalize = normalize
        if normalize:
            self.bn = nn.BatchNorm2d(c)
        else:
            self.bn = nn.Identity()

    def forward(self, x):
        if self.normalize:
            x = self.bn(x)
        return x

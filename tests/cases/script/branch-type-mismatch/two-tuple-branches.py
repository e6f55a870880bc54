# case: two tuple branches (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x, grid: List[int], keep: bool):
        if keep:
            size = grid[0], grid[0]
        else:
            size = grid[0], grid[1]
        return F.interpolate(x, size=size)

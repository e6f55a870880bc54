# case: tuple and list branches (seen in timm, torchvision and transformers)
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x, grid: List[int], keep: bool):
        if keep:  # error: JIT701
            size = grid[0], grid[0]
        else:
            size = grid
        return F.interpolate(x, size=size)

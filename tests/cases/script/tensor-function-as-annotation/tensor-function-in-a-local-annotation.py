# case: tensor function in a local annotation (seen in libraries beyond timm, torchvision and transformers)
# torch: rejects
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x: torch.Tensor):
        y: torch.tensor = x * 2  # error: JIT241
        return y

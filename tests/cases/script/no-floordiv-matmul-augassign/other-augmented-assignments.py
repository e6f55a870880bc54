# case: other augmented assignments (seen in libraries beyond timm, torchvision and transformers)
# torch: accepts
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x):
        hop = x.shape[-1]
        hop += 2
        hop -= 1
        hop *= 3
        scale = 2.0
        scale **= 2.0
        x /= scale
        return x[..., :hop]

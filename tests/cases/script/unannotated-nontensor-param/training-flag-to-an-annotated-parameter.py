# case: training flag to an annotated parameter (seen in libraries beyond timm, torchvision and transformers)
# torch: accepts
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


def default(val: Optional[bool], d: bool) -> bool:
    return val if val is not None else d

class M(nn.Module):
    def forward(self, x):
        flag = default(None, self.training)
        return x

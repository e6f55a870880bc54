# case: module training flag to an unannotated parameter (seen in libraries beyond timm, torchvision and transformers)
# torch: rejects
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


def default(val, d):
    return val if val is not None else d

class M(nn.Module):
    def forward(self, x):
        flag = default(x, self.training)  # error: JIT202
        return x

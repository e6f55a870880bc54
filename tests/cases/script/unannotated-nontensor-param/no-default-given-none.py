# case: no default given none (seen in libraries beyond timm, torchvision and transformers)
# torch: rejects
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


def scale(x, s):
    return x * s

class M(nn.Module):
    def forward(self, x):
        return scale(x, None)  # error: JIT202

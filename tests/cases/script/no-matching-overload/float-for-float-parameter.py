# case: float for float parameter (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


def scale(x, factor: float):
    return x * factor

class M(nn.Module):
    def forward(self, x):
        return scale(x, 2.0) + scale(x, factor=0.5)

# case: none default of an ignored function (seen in libraries beyond timm, torchvision and transformers)
# torch: accepts
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


@torch.jit.ignore
def show(x, note=None):
    return x

class M(nn.Module):
    def forward(self, x):
        return show(x, x)

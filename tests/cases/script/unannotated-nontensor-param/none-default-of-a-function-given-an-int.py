# case: none default of a function given an int (seen in libraries beyond timm, torchvision and transformers)
# torch: rejects
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


def rfft(x, n=None):
    return x

class M(nn.Module):
    def forward(self, x):
        return rfft(x, 1)  # error: JIT202

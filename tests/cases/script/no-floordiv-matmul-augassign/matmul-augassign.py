# case: matmul augassign (seen in libraries beyond timm, torchvision and transformers)
# torch: rejects
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x):
        x @= x  # error: JIT240
        return x

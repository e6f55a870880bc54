# case: tuple of shape slice (seen in timm, torchvision and transformers)
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x):
        hw = tuple(x.shape[2:4])  # error: JIT124
        return x

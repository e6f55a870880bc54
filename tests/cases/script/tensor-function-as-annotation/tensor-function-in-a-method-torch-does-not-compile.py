# case: tensor function in a method torch does not compile (seen in libraries beyond timm, torchvision and transformers)
# torch: accepts
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def describe(self, x: torch.tensor) -> str:
        return str(x.shape)

    def forward(self, x: torch.Tensor):
        return x

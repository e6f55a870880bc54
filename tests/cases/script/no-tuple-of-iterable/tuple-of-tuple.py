# case: tuple of tuple (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x, t: Tuple[int, int]):
        s = tuple(t)
        return x.view(s[0], s[1], -1)

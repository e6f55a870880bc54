# case: other attribute none test (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self, separate: bool = False):
        super().__init__()
        if separate:
            self.q = nn.Linear(4, 4)
            self.qkv = None
        else:
            self.qkv = nn.Linear(4, 4)

    def forward(self, x):
        if self.qkv is None:
            return self.q(x)
        return self.qkv(x)

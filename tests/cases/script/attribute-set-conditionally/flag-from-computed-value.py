# case: flag from computed value (seen in timm, torchvision and transformers)
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self, padding=1):
        super().__init__()
        self.use_pad = isinstance(padding, (list, tuple)) and len(padding) == 4
        if self.use_pad:
            self.pad = nn.ZeroPad2d(padding=padding)

    def forward(self, x):
        if self.use_pad:
            x = self.pad(x)  # warning: JIT232
        return x

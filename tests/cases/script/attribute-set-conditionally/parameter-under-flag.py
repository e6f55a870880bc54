# case: parameter under flag (seen in timm, torchvision and transformers)
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self, dim: int = 4, use_rel_pos: bool = False):
        super().__init__()
        self.use_rel_pos = use_rel_pos
        if self.use_rel_pos:
            self.rel_pos_h = nn.Parameter(torch.zeros(3, dim))

    def forward(self, x):
        if self.use_rel_pos:
            x = x + self.rel_pos_h.sum()  # warning: JIT232
        return x

# case: elif chain without else (seen in timm, torchvision and transformers)
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self, kind: str = "none"):
        super().__init__()
        self.kind = kind
        if kind == "relu":
            self.act = nn.ReLU()
        elif kind == "gelu":
            self.act = nn.GELU()

    def forward(self, x):
        if self.kind != "none":
            x = self.act(x)  # warning: JIT232
        return x

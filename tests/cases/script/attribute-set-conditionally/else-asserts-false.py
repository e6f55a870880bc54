# case: else asserts false (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self, kind: str = "relu"):
        super().__init__()
        self.kind = kind
        if kind == "relu":
            self.act = nn.ReLU()
        else:
            assert False, kind

    def forward(self, x):
        if self.kind == "relu":
            x = self.act(x)
        return x

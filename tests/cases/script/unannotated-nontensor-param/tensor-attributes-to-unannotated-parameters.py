# case: tensor attributes to unannotated parameters (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(1))
        self.register_buffer("t", torch.ones(1))

    def apply(self, img, w, t):
        return img * w * t

    def forward(self, x):
        return self.apply(x, self.w, self.t)

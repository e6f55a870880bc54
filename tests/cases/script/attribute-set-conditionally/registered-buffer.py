# case: registered buffer (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self, use_scale: bool = False):
        super().__init__()
        self.use_scale = use_scale
        if use_scale:
            self.scale = nn.Parameter(torch.ones(1))
        else:
            self.register_buffer("scale", torch.ones(1))

    def forward(self, x):
        if self.use_scale:
            x = x * self.scale
        return x

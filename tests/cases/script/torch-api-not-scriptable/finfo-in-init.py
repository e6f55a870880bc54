# case: finfo in init (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.low = float(torch.finfo(torch.float32).min)

    def forward(self, x):
        return x.clamp(min=self.low)

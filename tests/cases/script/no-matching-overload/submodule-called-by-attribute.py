# case: submodule called by attribute (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class Inner(nn.Module):
    def forward(self, x, k: int):
        return x * k

class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner()

    def forward(self, x):
        return self.inner(x, 3)

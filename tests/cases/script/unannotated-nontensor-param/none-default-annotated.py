# case: none default annotated (seen in libraries beyond timm, torchvision and transformers)
# torch: accepts
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class Up2(nn.Module):
    def forward(self, x, size: Optional[List[int]] = None):
        return x

class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.up = Up2()

    def forward(self, x):
        return self.up(x, x.shape[2:])

# case: unpack enumerated modulelist pairs (seen in timm, torchvision and transformers)
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Sequential(nn.Linear(4, 4), nn.ReLU()) for _ in range(2)])

    def forward(self, x):
        for i, (lin, act) in enumerate(self.layers):  # error: JIT234
            x = act(lin(x))
        return x

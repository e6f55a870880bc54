# case: float attribute to unannotated parameter (seen in timm, torchvision and transformers)
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = 2.0

    @staticmethod
    def apply(img, scale):
        return img * scale

    def forward(self, x):
        return self.apply(x, self.scale)  # error: JIT202

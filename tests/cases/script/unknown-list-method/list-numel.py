# case: list numel (seen in timm, torchvision and transformers)
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x, feat_shape: List[int]):
        return x.reshape(feat_shape.numel(), -1)  # error: JIT233

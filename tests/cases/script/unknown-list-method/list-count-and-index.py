# case: list count and index (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x, feat_shape: List[int]):
        return x.reshape(feat_shape.count(2) + feat_shape.index(feat_shape[0]), -1)

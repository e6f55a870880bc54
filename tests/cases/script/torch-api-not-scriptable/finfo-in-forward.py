# case: finfo in forward (seen in timm, torchvision and transformers)
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x):
        return x.clamp(min=torch.finfo(x.dtype).min)  # error: JIT414

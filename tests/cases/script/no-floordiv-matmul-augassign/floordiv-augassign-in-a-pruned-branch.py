# case: floordiv augassign in a pruned branch (seen in libraries beyond timm, torchvision and transformers)
# torch: rejects
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x):
        hop = x.shape[-1]
        if not torch.jit.is_scripting():
            hop //= 2  # error: JIT240
        return x[..., :hop]

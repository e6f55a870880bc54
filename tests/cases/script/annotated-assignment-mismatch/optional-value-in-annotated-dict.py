# case: optional value in annotated dict (seen in timm, torchvision and transformers)
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x, m: Optional[torch.Tensor] = None):
        d: Dict[str, torch.Tensor] = {"x": x, "m": m}  # error: JIT221
        return d["x"]

# case: optional value in returned dict (seen in timm, torchvision and transformers)
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x, m: Optional[torch.Tensor] = None) -> Dict[str, torch.Tensor]:
        return {  # error: JIT221
            "x": x,
            "m": m,
        }

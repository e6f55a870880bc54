# case: optional local rebound in its block (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x: torch.Tensor) -> Dict[str, torch.Tensor]:
        keep: Optional[torch.Tensor] = None
        keep = x * 2
        return {'x': x, 'keep': keep}

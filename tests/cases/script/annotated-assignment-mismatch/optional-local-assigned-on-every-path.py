# case: optional local assigned on every path (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x: torch.Tensor) -> Dict[str, torch.Tensor]:
        keep: Optional[torch.Tensor] = None
        if x.size(0) > 1:
            keep = x + 1
        else:
            keep = x
        return {'x': x, 'keep': keep}

# case: optional local in returned dict (seen in timm, torchvision and transformers)
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(0.1)

    def forward(self, x: torch.Tensor) -> Dict[str, torch.Tensor]:
        keep: Optional[torch.Tensor] = None
        if self.training and x.size(0) > 1:
            x, keep = self.drop(x), x.argsort(dim=1)
        return {  # error: JIT221
            'x': x,
            'keep': keep,
        }

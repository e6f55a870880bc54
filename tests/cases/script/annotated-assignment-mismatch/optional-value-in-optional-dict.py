# case: optional value in optional dict (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x, m: Optional[torch.Tensor] = None) -> Dict[str, Optional[torch.Tensor]]:
        return {"x": x, "m": m}

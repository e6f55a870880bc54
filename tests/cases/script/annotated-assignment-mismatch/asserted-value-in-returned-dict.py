# case: asserted value in returned dict (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x, m: Optional[torch.Tensor] = None) -> Dict[str, torch.Tensor]:
        assert m is not None
        return {"x": x, "m": m}

# case: stub unused helper (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.helper(x)

    @torch.jit.unused
    def helper(self, x: torch.Tensor) -> torch.Tensor:
        pass

# case: stub forward pass (seen in timm, torchvision and transformers)
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class ExtraBlock(nn.Module):
    def forward(  # error: JIT222
        self,
        results: List[torch.Tensor],
        names: List[str],
    ) -> Tuple[List[torch.Tensor], List[str]]:
        """Subclasses add results."""
        pass

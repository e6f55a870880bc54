# case: stub forward docstring (seen in timm, torchvision and transformers)
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class Base(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:  # error: JIT222
        """Implemented by subclasses."""

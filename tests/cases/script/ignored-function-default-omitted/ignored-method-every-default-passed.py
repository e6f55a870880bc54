# case: ignored method every default passed (seen in timm)
# torch: accepts
from typing import Any, Dict, List, Optional, Tuple, Union

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    @torch.jit.ignore
    def stats(self, x: torch.Tensor, every: int = 10, scale: Optional[float] = None) -> torch.Tensor:
        return x

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.stats(x, 3, scale=None)

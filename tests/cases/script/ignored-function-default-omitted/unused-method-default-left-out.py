# case: unused method default left out (seen in timm)
# torch: rejects
from typing import Any, Dict, List, Optional, Tuple, Union

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    @torch.jit.unused
    def stats(self, x: torch.Tensor, every: int = 10) -> torch.Tensor:
        return x

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.training:
            return self.stats(x)  # error: JIT438
        return x

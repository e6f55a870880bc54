# case: ignored free function default left out (seen in timm)
# torch: rejects
from typing import Any, Dict, List, Optional, Tuple, Union

import torch
import torch.nn as nn
import torch.nn.functional as F


@torch.jit.ignore
def stats(x: torch.Tensor, every: int = 10) -> torch.Tensor:
    return x

class M(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return stats(x)  # error: JIT438

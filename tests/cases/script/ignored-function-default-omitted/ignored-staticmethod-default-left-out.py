# case: ignored staticmethod default left out (seen in timm)
# torch: rejects
from typing import Any, Dict, List, Optional, Tuple, Union

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    @staticmethod
    @torch.jit.ignore
    def params(x: torch.Tensor, attempts: int = 10) -> int:
        return attempts

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.params(x)  # error: JIT438

# case: ignored method not called (seen in timm)
# torch: accepts
from typing import Any, Dict, List, Optional, Tuple, Union

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    @torch.jit.ignore
    def stats(self, x: torch.Tensor, every: int = 10) -> torch.Tensor:
        return x

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x

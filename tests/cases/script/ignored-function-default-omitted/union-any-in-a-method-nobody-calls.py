# case: union any in a method nobody calls (seen in timm)
# torch: accepts
from typing import Any, Dict, List, Optional, Tuple, Union

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def unused(self, x: Union[int, Any]) -> int:
        return 1

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x

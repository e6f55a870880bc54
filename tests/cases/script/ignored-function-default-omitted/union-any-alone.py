# case: union any alone (seen in timm)
# torch: accepts
from typing import Any, Dict, List, Optional, Tuple, Union

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x: torch.Tensor, s: Union[Any]) -> torch.Tensor:
        return x

# case: union any in an ignored method nobody calls (seen in timm)
# torch: accepts
from typing import Any, Dict, List, Optional, Tuple, Union

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    @torch.jit.ignore
    def f(self, x: torch.Tensor) -> Union[torch.Tensor, Any]:
        return x

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x

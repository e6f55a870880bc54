# case: union any pep604 (seen in timm)
# torch: rejects
# torch-line: none
# torch-error: false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/core/union_type.cpp":210, please report a bug to PyTorch. After type unification was performed, the Union with the original types
from typing import Any, Dict, List, Optional, Tuple, Union

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x: torch.Tensor, s: int | Any) -> torch.Tensor:  # error: JIT437
        return x

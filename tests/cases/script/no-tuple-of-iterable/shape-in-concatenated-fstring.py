# case: a shape inside an implicitly concatenated f-string
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x):
        if x.dim() != 3:
            raise ValueError(
                f"expected (B, N, D), got "
                f"{x.shape} of {x.dim()} dims."
            )
        return x

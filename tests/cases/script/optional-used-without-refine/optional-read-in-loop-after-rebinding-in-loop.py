# case: optional read in loop after rebinding in loop (seen in transformers)
# torch: accepts
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x: torch.Tensor, state: Optional[torch.Tensor] = None):
        for i in range(3):
            if state is None:
                state = x
            x = x + state.sum()
        return x

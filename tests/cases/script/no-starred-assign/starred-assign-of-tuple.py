# case: starred assignment of a tuple
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x, t: Tuple[int, int, int]):
        a, *rest = t
        first, *middle, last = (1, 2, 3, 4)
        return x * a + first + last

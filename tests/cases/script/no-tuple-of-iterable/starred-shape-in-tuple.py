# case: a starred element of a shape in a tuple display
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x):
        b, c, h, device = *x.shape[:3], x.device  # error: JIT124
        return x * b

# case: starred assignment of a shape
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x):
        b, *rest = x.shape  # error: JIT119
        return x * b

# case: a starred tuple in a tuple display
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x, t: Tuple[int, int]):
        shape = (x.shape[0], *t, *(1, 1))
        return x.view(shape[0], -1) * shape[1]

# case: a starred tuple times a count in a tuple display (a tuple times an int is a list)
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x):
        shape = (x.shape[0], *((1,) * (x.dim() - 1)))  # error: JIT124
        return x.view(shape)

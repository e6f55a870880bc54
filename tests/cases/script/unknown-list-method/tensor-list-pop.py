# case: tensor list pop (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, xs: List[torch.Tensor]):
        last = xs.pop()
        xs.append(last)
        xs.reverse()
        return xs[0]

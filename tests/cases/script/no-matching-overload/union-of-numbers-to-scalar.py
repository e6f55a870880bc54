# case: union of numbers to scalar (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


from typing import Union

def add(x, k: Union[int, float]):
    return torch.add(x, k)

class M(nn.Module):
    def forward(self, x):
        return add(x, 1)

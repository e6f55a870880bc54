# case: union alias to int list (seen in timm, torchvision and transformers)
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


from typing import Union

_int_tuple_2_t = Union[int, Tuple[int, int]]

def pool(x, output_size: _int_tuple_2_t = 1):
    return F.adaptive_avg_pool2d(x, output_size)  # error: JIT416

class M(nn.Module):
    def forward(self, x):
        return pool(x, 1)

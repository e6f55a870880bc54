# case: union refined by isinstance (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


from typing import Union

def pool(x, output_size: Union[int, Tuple[int, int]] = 1):
    if isinstance(output_size, int):
        return F.adaptive_avg_pool2d(x, output_size)
    return F.adaptive_avg_pool2d(x, output_size)

class M(nn.Module):
    def forward(self, x):
        return pool(x, 1)

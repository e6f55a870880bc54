# case: union to int list (seen in timm, torchvision and transformers)
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


from typing import Union

class M(nn.Module):
    def forward(self, x, output_size: Union[int, Tuple[int, int]] = 1):
        return F.adaptive_max_pool2d(x, output_size)  # error: JIT416

# case: list for int parameter of a method (seen in timm, torchvision and transformers)
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def pad(self, x, amount: int):
        return F.pad(x, [amount, amount])

    def forward(self, x):
        return self.pad(x, [1, 2])  # error: JIT416

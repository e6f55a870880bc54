# case: unpack unannotated parameter (seen in timm, torchvision and transformers)
# torch: rejects
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, pred, target):
        mean, var = pred  # error: JIT234
        return (mean - target) / var

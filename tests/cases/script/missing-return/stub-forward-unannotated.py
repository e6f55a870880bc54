# case: stub forward unannotated (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class Base(nn.Module):
    def forward(self, x: torch.Tensor):
        pass

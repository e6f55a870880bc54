# case: static method called on self (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    @staticmethod
    def shift(ids, pad: int, past: int = 0):
        return ids + pad + past

    def forward(self, x):
        return self.shift(x, 1) + self.shift(x, 1, past=2)

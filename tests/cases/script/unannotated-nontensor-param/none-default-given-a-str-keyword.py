# case: none default given a str keyword (seen in libraries beyond timm, torchvision and transformers)
# torch: rejects
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class Spec(nn.Module):
    def forward(self, x, output_format=None):
        return x

class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.stft = Spec()

    def forward(self, x):
        return self.stft(x, output_format="Magnitude")  # error: JIT202

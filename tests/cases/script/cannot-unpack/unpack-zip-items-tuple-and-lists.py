# case: unpack zip items tuple and lists (seen in timm, torchvision and transformers)
# torch: accepts
from typing import Dict, Final, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])
        self.b = nn.ModuleList([nn.ReLU() for _ in range(2)])
        self.d = nn.ModuleDict({"x": nn.ReLU()})

    def forward(self, x, pred: Tuple[torch.Tensor, torch.Tensor]):
        for lin, act in zip(self.a, self.b):
            x = act(lin(x))
        for k, m in self.d.items():
            x = m(x)
        for i, layer in enumerate(self.a):
            x = layer(x)
        mean, var = pred
        h, w = x.shape[-2:]
        u, v = x.unbind(0)
        return x + mean + var + u + v

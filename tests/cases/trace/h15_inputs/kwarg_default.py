# case: a keyword with a default, omitted at trace time: baked
# torch: breaks
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3), 3.0)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, scale: float = 2.0):  # warning: TRC210
        return x * scale

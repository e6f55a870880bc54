# case: `float(tensor)`
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        s = float(x.abs().mean())  # warning: DYN102
        return x / s

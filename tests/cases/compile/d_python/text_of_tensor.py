# case: `str(t)` breaks; `len()` of an f-string of a tensor gives up the function
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        x = x + 1
        text = str(x.sum())  # warning: DYN109
        return x * 2

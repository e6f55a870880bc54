# case: with scalars captured, `range(<item>)` needs the value: a break
# torch: breaks
# settings: capture-scalar-outputs=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        n = (x.abs().sum().long() % 3 + 1).item()
        for i in range(n):  # warning: DYN101
            x = x + 1
        return x

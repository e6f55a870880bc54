# case: with scalars captured `.item()` is traced and the `if` on it breaks
# torch: breaks
# settings: capture-scalar-outputs=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        v = x.max().item()
        if v > 0.5:  # warning: DYN101
            return x * 2
        return x

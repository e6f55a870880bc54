# case: with both capture flags only the two decisions break
# torch: breaks
# settings: capture-scalar-outputs=true, capture-dynamic-output-shape-ops=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if x.sum() > 0:  # warning: DYN101
            x = x + 1
        k = int(x.max().item() * 10)
        x = x * k
        if (x > 1).any():  # warning: DYN101
            x = x - 1
        return x

# case: a comprehension's `if` on an element of a tensor it iterates (directly or through `zip`) is a data-dependent branch
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(3, 3) for _ in range(4)])

    def forward(self, x):
        drop = x[0] > 0
        kept = [layer for (layer, dropped) in zip(self.layers, drop) if not dropped]  # warning: DYN101
        return x + len(kept)

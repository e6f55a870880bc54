# case: `all()`/`any()` over generators of sizes, None checks, flags and Python numbers compile in one graph
# torch: accepts
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(3, 3), nn.Linear(3, 3)])

    def forward(self, x):
        parts = [x, None, x * 2]
        if all(s > 0 for s in x.shape) and any(p is not None for p in parts):
            x = x + 1
        if all(m.in_features == 3 for m in self.layers) and any([d > 1 for d in x.size()]):
            x = x * 2
        if not any(isinstance(p, torch.Tensor) and p.dim() > 2 for p in parts):
            x = x - 1
        return x

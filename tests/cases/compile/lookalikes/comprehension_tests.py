# case: comprehension tests Dynamo decides while tracing: `is None` on tensor elements, sizes, Python values zipped with tensors
# torch: accepts
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(3, 3) for _ in range(4)])
        self.active = [True, False, True, True]

    def forward(self, x):
        doubled = [t * 2 for t in x if t is not None]
        wide = [t for t in x if t.shape[0] > 1]
        used = [layer for (layer, on) in zip(self.layers, self.active) if on]
        for layer in used:
            x = layer(x)
        return x + torch.stack(doubled).sum() + len(wide)

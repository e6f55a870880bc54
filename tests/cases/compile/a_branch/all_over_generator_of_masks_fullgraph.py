# case: `all()` over a generator of tensor comparisons under fullgraph=True is an error at that line
# torch: rejects
# settings: fullgraph=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        ordered = all(a <= b for a, b in zip(x[:-1, 0], x[1:, 0]))  # warning: DYN101
        return x + 1, ordered

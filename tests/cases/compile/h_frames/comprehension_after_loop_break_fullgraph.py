# case: fullgraph: the first break inside the loop raises, no function is given up to eager, and the comprehension
#   after it is not compiled on its own
# torch: rejects
# settings: fullgraph=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        sizes = [2, 3]
        total = 0.0
        for row in x:
            total += float(torch.equal(row, row))  # warning: DYN102
        levels = [torch.full((n,), i) for i, n in enumerate(sizes)]
        return x * total, levels

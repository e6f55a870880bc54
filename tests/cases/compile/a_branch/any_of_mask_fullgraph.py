# case: `any()` over a tensor under fullgraph=True is an error at that line
# torch: rejects
# settings: fullgraph=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        flags = x.sum(dim=1) > 0
        found = any(flags)  # warning: DYN101
        return x + 1, found

# case: the same `if` under fullgraph=True is an error at that line
# torch: rejects
# settings: fullgraph=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if x.sum() > 0:  # warning: DYN101
            return x * 2
        return x - 1

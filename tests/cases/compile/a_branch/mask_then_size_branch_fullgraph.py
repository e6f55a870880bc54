# case: fullgraph: the mask is traced, the branch on its data-dependent size fails
# torch: rejects
# settings: fullgraph=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        y = x[x > 0]
        if y.shape[0] > 2:  # warning: DYN101
            return y * 2
        return y

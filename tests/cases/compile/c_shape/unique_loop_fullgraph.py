# case: fullgraph: `unique` is traced, iterating over its data-dependent length fails
# torch: rejects
# settings: fullgraph=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        labels = (x[:, 0] > 0).long()
        out = x.new_zeros(())
        for c in torch.unique(labels):  # warning: DYN101
            out = out + x[labels == c].sum()
        return out

# case: `numel() == 0` on a masked tensor under fullgraph=True
# torch: rejects
# settings: fullgraph=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        kept = x[x[:, 0] > 0]
        if kept.numel() == 0:  # warning: DYN101
            return x.sum()
        return kept.sum()

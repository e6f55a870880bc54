# case: fullgraph: `pad_sequence` of `unique` results (one row) has a data-dependent size; deciding on it raises
# torch: rejects
# settings: fullgraph=true
# inputs: (torch.randn(1, 3),)
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence


class M(nn.Module):
    def forward(self, x):
        labels = (x > 0).long() * torch.arange(3)
        ids = pad_sequence([torch.unique(t) for t in torch.unbind(labels)], batch_first=True)
        if ids.shape[1] > 2:  # warning: DYN101
            return x * 2
        return x - 1

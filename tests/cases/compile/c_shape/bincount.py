# case: `torch.bincount`
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        labels = (x[:, 0] > 0).long()
        return torch.bincount(labels).sum() + x.sum()  # warning: DYN103

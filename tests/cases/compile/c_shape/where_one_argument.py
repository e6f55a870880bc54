# case: one-argument `torch.where` (torchvision's `keep = torch.where(...)[0]`)
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        keep = torch.where(x[:, 0] > 0)[0]  # warning: DYN103
        return x[keep].sum()

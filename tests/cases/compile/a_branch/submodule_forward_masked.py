# case: default mode: the mask breaks in the caller; the submodule's forward then runs on a concrete tensor
# torch: breaks
import torch
import torch.nn as nn


class Head(nn.Module):
    def forward(self, x):
        if x.shape[0] > 2:
            return x * 2
        return x - 1


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = Head()

    def forward(self, x):
        kept = x[x[:, 0] > 0]  # warning: DYN103
        return self.head(kept)

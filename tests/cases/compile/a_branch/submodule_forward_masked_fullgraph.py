# case: fullgraph: a submodule's forward given a masked tensor decides on its size (the caller's kind reaches forward)
# torch: rejects
# settings: fullgraph=true
import torch
import torch.nn as nn


class Head(nn.Module):
    def forward(self, x):
        if x.shape[0] > 2:  # warning: DYN101
            return x * 2
        return x - 1


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = Head()

    def forward(self, x):
        kept = x[x[:, 0] > 0]
        return self.head(kept)

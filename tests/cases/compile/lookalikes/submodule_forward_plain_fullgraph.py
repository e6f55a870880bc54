# case: fullgraph: a submodule's forward given plain tensors (a slice, a submodule's output) decides on static sizes
# torch: accepts
# settings: fullgraph=true
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
        self.proj = nn.Linear(3, 3)

    def forward(self, x):
        return self.head(x[:, :2]) + self.head(self.proj(x))[:, :2]

# case: look-alikes torch scripts: parametrizations.weight_norm, a norm chosen by configuration, removed, or its module replaced
# torch: accepts
import torch
import torch.nn as nn
from torch.nn.utils import parametrizations, remove_weight_norm, weight_norm


class Head(nn.Module):
    def __init__(self, dim: int = 8, classes: int = 4):
        super().__init__()
        self.last = parametrizations.weight_norm(nn.Linear(dim, classes, bias=False))

    def forward(self, x):
        return self.last(x)


class Configured(nn.Module):
    def __init__(self, dim: int = 8, normed: bool = False):
        super().__init__()
        self.last = nn.Linear(dim, dim)
        if normed:
            self.last = weight_norm(self.last)

    def forward(self, x):
        return self.last(x)


class Removed(nn.Module):
    def __init__(self, dim: int = 8):
        super().__init__()
        self.last = weight_norm(nn.Linear(dim, dim))
        remove_weight_norm(self.last)

    def forward(self, x):
        return self.last(x)


class Replaced(nn.Module):
    def __init__(self, dim: int = 8):
        super().__init__()
        self.last = weight_norm(nn.Linear(dim, dim))
        self.last = nn.Linear(dim, dim)

    def forward(self, x):
        return self.last(x)

# case: `__init__` always wraps a submodule with the hook-based weight_norm (a Linear) or spectral_norm (a conv in a Sequential)
# torch: rejects
# torch-error: object has no attribute '__name__'
# torch-line: none
import torch
import torch.nn as nn
from torch.nn.utils import spectral_norm


class Head(nn.Module):
    def __init__(self, dim: int = 8, classes: int = 4):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.last = nn.utils.weight_norm(nn.Linear(dim, classes, bias=False))  # error: JIT635

    def forward(self, x):
        return self.last(torch.relu(self.proj(x)))


class Block(nn.Module):
    def __init__(self, channels: int = 4):
        super().__init__()
        self.body = nn.Sequential(spectral_norm(nn.Conv2d(channels, channels, 3, padding=1)), nn.ReLU())  # error: JIT635

    def forward(self, x):
        return self.body(x)


class Projection(nn.Module):
    def __init__(self, dim: int = 8):
        super().__init__()
        self.last = nn.Linear(dim, dim, bias=False)
        self.last = nn.utils.weight_norm(self.last)  # error: JIT635

    def forward(self, x):
        return self.last(x)

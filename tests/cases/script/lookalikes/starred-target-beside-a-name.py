# case: a starred target beside a name, of a tuple: torch unpacks a tuple's static length with a star
# torch: accepts
import torch
from torch import nn


class M(nn.Module):
    def forward(self, x):
        first, *rest = (x, x, x)
        return first + rest[0]

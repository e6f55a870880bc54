# case: a `torch.jit.trace`-d submodule: a break
# torch: breaks
import torch
import torch.nn as nn


class Sub(nn.Module):
    def forward(self, x):
        return x * 2


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = torch.jit.trace(Sub(), torch.randn(4, 3))

    def forward(self, x):
        x = x + 1
        return self.inner(x)  # warning: DYN112

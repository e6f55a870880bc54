# case: a `torch.jit.script`-ed submodule: Dynamo gives up the whole function
# torch: breaks
import torch
import torch.nn as nn


class Sub(nn.Module):
    def forward(self, x):
        return x * 2


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = torch.jit.script(Sub())

    def forward(self, x):
        x = x + 1
        return self.inner(x)  # warning: DYN111

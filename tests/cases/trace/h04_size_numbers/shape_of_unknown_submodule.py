# case: `.shape` of what a submodule of unknown class returns (passed in to the constructor) is a traced size:
#       converting it freezes the example's value
# torch: changes
# inputs: (torch.ones(2, 4),)
# inputs2: (torch.ones(2, 8),)
import torch
import torch.nn as nn


class Wrap(nn.Module):
    def __init__(self, inner: nn.Module):
        super().__init__()
        self.inner = inner

    def forward(self, x):
        y = self.inner(x)
        n = int(y.shape[1])  # warning: TRC203
        return y[:, : n // 2]


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.wrap = Wrap(nn.ReLU())

    def forward(self, x):
        return self.wrap(x)

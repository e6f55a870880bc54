# case: an in-place buffer update: tracing runs it once
# torch: changes
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("total", torch.zeros(3))

    def forward(self, x):
        self.total.add_(x.sum(0))  # warning: TRC208
        return x + self.total

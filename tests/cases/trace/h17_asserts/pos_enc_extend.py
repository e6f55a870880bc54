# case: a positional table grown in forward: the grown table is baked
# torch: breaks
# inputs: (torch.randn(2, 10, 4),)
# inputs2: (torch.randn(2, 30, 4),)
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.pe = self.build(16)

    def build(self, n):
        position = torch.arange(n).float()[:, None]
        return torch.sin(position * torch.ones(4))

    def forward(self, x):
        if self.pe.size(0) < x.size(1):  # warning: TRC201
            self.pe = self.build(x.size(1))  # warning: TRC207
        return x + self.pe[: x.size(1)]

# case: `min(x.size(1), self.pe.size(0))`: frozen comparison
# torch: breaks
# inputs: (torch.randn(2, 10, 4),)
# inputs2: (torch.randn(2, 80, 4),)
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("pe", torch.randn(64, 4))

    def forward(self, x):
        t = min(x.size(1), self.pe.size(0))  # warning: TRC201
        return x[:, :t] + self.pe[:t]

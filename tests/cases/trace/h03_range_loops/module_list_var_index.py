# case: `range(len(self.layers))`: a module count
# torch: accepts
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(3, 3) for _ in range(2)])

    def forward(self, x):
        for i in range(len(self.layers)):
            x = self.layers[i](x)
        return x

# case: `device=self.weight.device`: a parameter's device is baked
# torch: accepts
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(3))

    def forward(self, x):
        return x + torch.arange(3, device=self.weight.device)  # warning: TRC205

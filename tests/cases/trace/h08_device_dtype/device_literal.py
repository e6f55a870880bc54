# case: `device=torch.device("cpu")`: a constant device
# torch: accepts
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        return x + torch.ones(3, device=torch.device("cpu"))  # warning: TRC205

# case: `dtype=x.dtype`: the example's dtype is baked
# torch: changes
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3, dtype=torch.float64),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        return torch.ones(x.shape[0], dtype=x.dtype)  # warning: TRC205

# case: forward returns nothing
# torch: rejects
# torch-error: The traced function didn't return any values
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):  # error: TRC103
        self.last = x * 2

# case: `return x, None`
# torch: rejects
# torch-error: Only tensors, lists, tuples of tensors, or dictionary of tensors can be output
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        return x, None  # error: TRC102

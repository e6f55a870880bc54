# case: `@torch.jit.ignore` is not honoured by trace: the NumPy body is traced
# torch: changes
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    @torch.jit.ignore  # info: TRC301
    def helper(self, x):
        return torch.from_numpy(x.numpy() * 2)  # warning: TRC204

    def forward(self, x):
        return self.helper(x)

# case: `torch._assert` on a size: checked once (torch's warning is hidden)
# torch: changes
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(8, 5),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        torch._assert(x.shape[1] == 3, "three channels")  # warning: TRC201
        return x * 2

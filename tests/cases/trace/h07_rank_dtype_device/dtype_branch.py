# case: `if x.dtype == torch.float16`: frozen with no warning
# torch: changes
# inputs: (torch.randn(4, 3),)
# inputs2: (torch.randn(4, 3).half(),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if x.dtype == torch.float16:  # warning: TRC201
            x = x.float()
        return x * 2

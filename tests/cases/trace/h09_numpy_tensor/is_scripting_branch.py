# case: trace runs the eager side of `is_scripting()`
# torch: changes
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if torch.jit.is_scripting():  # info: TRC301
            return x + 1
        return torch.from_numpy(x.numpy() + 1)  # warning: TRC204

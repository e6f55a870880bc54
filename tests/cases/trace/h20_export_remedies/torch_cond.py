# case: `torch.cond` does not trace
# torch: rejects
# torch-error: Detected that you are using FX to torch.jit.trace a dynamo-optimized function
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        return torch.cond(x.sum() > 0, lambda t: t * 2, lambda t: t - 1, (x,))  # error: TRC105

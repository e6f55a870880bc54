# case: `@torch.jit.unused` on a training-only path: traced if reached
# torch: accepts
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    @torch.jit.unused  # info: TRC301
    def helper(self, x):
        return x - 1

    def forward(self, x):
        return self.helper(x)

# case: `@torch.jit.ignore` on pure torch code: traced into the graph
# torch: accepts
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    @torch.jit.ignore  # info: TRC301
    def helper(self, x):
        return x * 2

    def forward(self, x):
        return self.helper(x)

# case: a `@torch.jit.script` function keeps its loop inside the trace
# torch: accepts
# inputs: (torch.randn(4, 3),)
# inputs2: (torch.randn(4, 6),)
import torch
import torch.nn as nn


@torch.jit.script
def running_sum(x: torch.Tensor) -> torch.Tensor:
    out = x[:, 0]
    for i in range(1, x.size(1)):
        out = out + x[:, i]
    return out


class M(nn.Module):
    def forward(self, x):
        return running_sum(x)

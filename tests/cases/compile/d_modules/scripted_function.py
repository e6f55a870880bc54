# case: a `torch.jit.script`-ed free function: Dynamo inlines its Python, so a branch on data in it breaks
# torch: breaks
import torch
import torch.nn as nn


@torch.jit.script
def double(x: torch.Tensor) -> torch.Tensor:
    if x.sum() > 0:  # warning: DYN101
        return x * 2
    return x


class M(nn.Module):
    def forward(self, x):
        x = x + 1
        return double(x)

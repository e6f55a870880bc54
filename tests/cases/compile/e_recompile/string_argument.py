# case: a new string on each call, read as text: strings are never dynamic
# torch: recompiles
# inputs: (torch.randn(4, 3), f"mode{i}")
# calls: 12
# recompile-limit: hit
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, mode: str):  # warning: DYN202
        if mode.startswith("double"):
            return x * 2
        return x * 3

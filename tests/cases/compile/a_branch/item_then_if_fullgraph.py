# case: fullgraph=True captures scalars: the error is at the `if`, not the `.item()`
# torch: rejects
# settings: fullgraph=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        v = x.max().item()
        if v > 0.5:  # warning: DYN101
            return x * 2
        return x

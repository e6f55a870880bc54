# case: fullgraph=True captures scalars by itself: no error
# torch: accepts
# settings: fullgraph=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        v = x.sum().item()
        return x * v

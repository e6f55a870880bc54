# case: with `capture-scalar-outputs` the same code is one graph
# torch: accepts
# settings: capture-scalar-outputs=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        v = x.sum().item()
        return x * v

# case: with `capture-dynamic-output-shape-ops` masks and `nonzero` are traced
# torch: accepts
# settings: capture-dynamic-output-shape-ops=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        idx = torch.nonzero(x > 0)
        return x[x > 0].sum() + idx.sum()

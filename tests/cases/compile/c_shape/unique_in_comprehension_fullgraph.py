# case: under fullgraph=True Dynamo captures dynamic output shapes: `torch.unique` in a comprehension is traced
# torch: accepts
# settings: fullgraph=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        ids = (x * 3).long()
        rows = [torch.unique(t, sorted=True) for t in torch.unbind(ids)]
        return x.sum() + len(rows)

# case: `.tolist()` breaks (a data-dependent operator)
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        sizes = torch.tensor([1, 2])
        out = []
        for s in sizes.tolist():  # warning: DYN102
            out.append(x[:s].sum(0))
        return torch.stack(out)

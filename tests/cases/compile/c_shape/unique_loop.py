# case: a loop over `unique`; inside it a mask: a break in a loop gives up the function
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        labels = (x[:, 0] > 0).long()
        out = x.new_zeros(())
        for c in torch.unique(labels):  # warning: DYN103
            out = out + x[labels == c].sum()  # warning: DYN103
        return out

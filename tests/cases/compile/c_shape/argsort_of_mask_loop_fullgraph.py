# case: fullgraph: `argsort` keeps the data-dependent size of `masked_select`'s output (as a method or as a torch
#   function); a `for` loop over it cannot be unrolled
# torch: rejects
# settings: fullgraph=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        mask = x > 0
        scores = torch.masked_select(x, mask)
        order = torch.argsort(scores, descending=True)
        out = x.new_zeros(())
        for i in order:  # warning: DYN101
            out = out + scores[i]
        return out

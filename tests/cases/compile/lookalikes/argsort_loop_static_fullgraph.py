# case: fullgraph: a `for` loop over `argsort` of a tensor whose size is static unrolls (look-alike of a loop over
#   `argsort` of a masked tensor)
# torch: accepts
# settings: fullgraph=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        scores = torch.sigmoid(x[:, 0])
        order = torch.argsort(scores, descending=True)
        out = x.new_zeros(())
        for i in order:
            out = out + i * torch.zeros_like(scores).sum()
        return out

# case: fullgraph: `gather` by indices of data-dependent length has their size; deciding on it raises
# torch: rejects
# settings: fullgraph=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        idx = torch.nonzero(x[:, 0] > 0)[:, 0]
        picked = torch.gather(x[:, 1], 0, idx)
        if picked.shape[0] > 2:  # warning: DYN101
            return picked * 2
        return picked - 1

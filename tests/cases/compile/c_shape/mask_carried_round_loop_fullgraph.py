# case: fullgraph: a tensor masked at the end of a loop's body is data-dependent from the second iteration on
# torch: rejects
# settings: fullgraph=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        for _ in range(2):
            if x.shape[0] > 2:  # warning: DYN101
                x = x * 2
            x = x[x[:, 0] > 0]
        return x

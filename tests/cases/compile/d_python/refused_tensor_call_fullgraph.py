# case: fullgraph: `.random_()` raises
# torch: rejects
# settings: fullgraph=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        y = x * 2
        noise = torch.empty_like(y).random_(0, 10)  # warning: DYN114
        return y + noise

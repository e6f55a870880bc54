# case: tensors of another dtype index with a static shape; a `dtype=torch.bool` mask used by `where`, `masked_fill`, arithmetic
# torch: accepts
# inputs: (torch.randn(4, 4),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        n = x.shape[0]
        index = torch.arange(n, dtype=torch.long).flip(0)
        rows = x[index]
        eye = torch.eye(n, dtype=torch.bool)
        kept = torch.where(eye, x, 0.0) + x.masked_fill(~eye, 1.0)
        half = torch.zeros(n, dtype=torch.int64)
        return rows[half] + kept + eye.float() * 2

# case: `torch._check` on a traced size does not trace
# torch: rejects
# torch-error: cond must be a bool, but got a Tensor
# inputs: (torch.randn(8, 3), torch.tensor(4))
# inputs2: (torch.randn(8, 3), torch.tensor(2))
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, n):
        k = n.item()  # warning: TRC203
        torch._check(k <= x.shape[0])  # error: TRC105
        return x[:k]

# case: a chained comparison of traced sizes returned by a helper (`a == b <= c` takes the truth of `a == b`), and the
#       branch on what it returns: both frozen
# torch: changes
# inputs: (torch.ones(2, 4), torch.ones(2, 4))
# inputs2: (torch.ones(2, 16), torch.ones(2, 16))
import torch
import torch.nn as nn


def small_pair(q: torch.Tensor, k: torch.Tensor) -> bool:
    return q.shape[-1] == k.shape[-1] <= 8  # warning: TRC201


class M(nn.Module):
    def forward(self, q, k):
        if small_pair(q, k):  # warning: TRC201
            return q * 2
        return q

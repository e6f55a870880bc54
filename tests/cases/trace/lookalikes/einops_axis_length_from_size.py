# case: a traced size given to einops as an axis length (`repeat(..., b=b)`, `reduce(..., n=n)`): einops passes it
#       to `expand`/`reshape` as it is (its `isinstance(length, int)` checks skip recorded sizes): it stays traced,
#       and torch says nothing
# torch: accepts
# inputs: (torch.ones(2, 3, 4),)
# inputs2: (torch.ones(5, 3, 6),)
import torch
import torch.nn as nn
from einops import reduce, repeat


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.memory = nn.Parameter(torch.randn(3, 2))

    def forward(self, x):
        b, c, n = x.shape
        memory = repeat(self.memory, "c m -> b c m", b=b)
        pooled = reduce(x, "b c (n two) -> b c n", "mean", n=n // 2)
        return torch.cat((memory, pooled), dim=-1)

# case: einops `rearrange`/`reduce` are traced
# torch: accepts
# requires: einops
from einops import rearrange, reduce
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        y = rearrange(x, "b (h w) -> b h w", h=1)
        return reduce(y, "b h w -> b w", "mean")

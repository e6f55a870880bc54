# case: `int()` of sizes and `math` on them: static or symbolic, no break
# torch: accepts
import math
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        n = int(x.shape[0] * 0.5)
        m = math.ceil(x.size(1) / 2)
        k = int(math.sqrt(x.numel()))
        return x[:n, :m] * k

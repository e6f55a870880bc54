# case: `enumerate` and `zip` over module containers give an int index and the modules side by side, in loops and
#   comprehensions
# torch: accepts
import torch
import torch.nn as nn
from torch import Tensor


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
        self.norms = nn.ModuleList([nn.LayerNorm(4) for _ in range(3)])

    def forward(self, x: Tensor) -> Tensor:
        outs = []
        for i, blk in enumerate(self.blocks):
            x = blk(x) * (i + 1)
            if i == 1:
                outs.append(x)
        for blk, norm in zip(self.blocks, self.norms):
            x = norm(blk(x))
        ys = [m(x) for j, m in enumerate(self.blocks)]
        return x + outs[0] + ys[0]

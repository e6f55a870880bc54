# case: the index `enumerate` gives over a ModuleList (an unrolled loop) is an int: adding it to a str is checked
# torch: rejects
# torch-error: Arguments for call are not valid
import torch
import torch.nn as nn
from torch import Tensor


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
        self.norms = nn.ModuleList([nn.LayerNorm(4) for _ in range(3)])

    def forward(self, x: Tensor) -> Tensor:
        for i, blk in enumerate(self.blocks):
            x = blk(x) + i
            s = "a" + i  # error: JIT416
        for blk, norm in zip(self.blocks, self.norms):
            x = norm(blk(x))
        return x

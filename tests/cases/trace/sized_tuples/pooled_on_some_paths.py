# case: a tuple of sizes that a configured submodule gives on one path and the caller's plain ints on the other: where
#       the submodule runs, what reads the sizes in Python is frozen
# torch: changes
# inputs: (torch.ones(1, 1, 8, 8),)
# inputs2: (torch.ones(1, 1, 12, 12),)
import torch
import torch.nn as nn
import torch.nn.functional as F


class Pool(nn.Module):
    def forward(self, x, hw: tuple[int, int]):
        x = F.max_pool2d(x, 2)
        return x, (x.shape[2], x.shape[3])


class Block(nn.Module):
    def __init__(self, pool: bool):
        super().__init__()
        self.pool = Pool() if pool else None

    def forward(self, x, hw: tuple[int, int]):
        if self.pool is not None:
            x, hw = self.pool(x, hw)
        if hw[0] * hw[1] > 16:  # warning: TRC201
            x = x * 2
        return x


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block(pool=True)

    def forward(self, x):
        return self.block(x, (8, 8))

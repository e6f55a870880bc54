# case: comprehensions Dynamo steps in a function it runs eagerly (over a `range`, a tuple, a tensor's rows or
#   shape; or naming no torch module nor tensor), and the same comprehensions in a function it traces (without a
#   break in a loop, where each comprehension is inlined)
# torch: breaks
import torch
import torch.nn as nn


class Eager(nn.Module):
    def forward(self, x):
        sizes = [2, 3]
        kept = []
        for row in x:
            kept.append(row[row > 0])  # warning: DYN103
        shape = (2, 3)
        a = [torch.full((2,), i) for i in range(len(sizes))]
        b = [torch.zeros(n) for n in shape]
        c = [r * 2 for r in x]
        d = [torch.zeros(n) for n in x.shape]
        e = [n * 2 for n in sizes]
        f = [torch.full((n,), i) for i, n in tuple(enumerate(sizes))]
        return kept, a, b, c, d, e, f


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.eager = Eager()

    def forward(self, x):
        sizes = [2, 3]
        levels = [torch.full((n,), i) for i, n in enumerate(sizes)]
        widths = tuple(n * 2 for n in sizes)
        return self.eager(x), levels, widths

# case: a function with a graph break inside a loop runs eagerly; on Python 3.11 each comprehension that names torch
#   (or reads `self`, a module) is then compiled as a frame of its own, whose list, `enumerate` or `zip` iterator
#   Dynamo cannot step
# torch: breaks
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = 2.0

    def forward(self, x):
        sizes = [2, 3]
        kept = []
        for row in x:
            kept.append(row[row > 0])  # warning: DYN103
        levels = [torch.full((n,), i) for i, n in enumerate(sizes)]  # warning: DYN113
        pairs = [torch.zeros(a + b) for a, b in zip(sizes, sizes)]  # warning: DYN113
        ones = {n: torch.ones(n) for n in sizes}  # warning: DYN113
        scaled = [self.scale * n for n in sizes]  # warning: DYN113
        return kept, levels, pairs, ones, scaled

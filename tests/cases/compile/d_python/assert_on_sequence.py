# case: a plain `assert` on a sequence Dynamo can neither fold nor trace as a tensor (a list of tensors, a `*args` tuple of objects): Dynamo makes it `torch.scalar_tensor(...)`, which fails, and breaks
# torch: breaks
from typing import List

import torch
import torch.nn as nn


class Step:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, x):
        return x * self.scale


class Chain:
    def __init__(self, *steps: Step):
        assert steps, "no steps"  # warning: DYN114
        self.steps = steps


def total(xs: List[torch.Tensor]):
    assert xs  # warning: DYN114
    return sum(xs)


class M(nn.Module):
    def forward(self, x):
        chain = Chain(Step(x.mean()), Step(2.0))
        y = chain.steps[0](x)
        return total(list(y.split(2)))

# case: a function reached through a dict of dicts of functions (`ROUTINES[loss][backend](...)`) or a `functools.partial` held in one is inlined by Dynamo: `.item()` inside it breaks
# torch: breaks
from functools import partial

import torch
import torch.nn as nn


def diameter(x):
    return (x.max() - x.min()).item()  # warning: DYN102


def tensorized(x, y, scale=1.0):
    return (x - y).pow(2).sum() / diameter(x) * scale


def online(x, y, scale=1.0):
    return (x - y).abs().sum() * scale


def kernel(x, y, name="energy"):
    return (x * y).sum() * float(x.std())  # warning: DYN102


ROUTINES = {
    "sinkhorn": {"tensorized": tensorized, "online": online},
    "energy": {"tensorized": partial(kernel, name="energy"), "online": online},
}


class M(nn.Module):
    def __init__(self, loss="sinkhorn", backend="tensorized"):
        super().__init__()
        self.loss = loss
        self.backend = backend

    def forward(self, x):
        return ROUTINES[self.loss][self.backend](x, x.flip(0)) + ROUTINES["energy"][self.backend](x, x)

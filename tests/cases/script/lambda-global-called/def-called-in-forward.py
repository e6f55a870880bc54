# case: the look-alikes: the same function written with `def` is compiled; a lambda used only outside compiled code is fine
# torch: accepts
import torch
import torch.nn as nn

cube = lambda t: t * t * t  # noqa: E731


def square(t):
    return t * t


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.n = int(cube(torch.ones(1)).item())

    def forward(self, x):
        return square(x) + self.n

# case: an object of a plain class built in forward whose `__init__` keeps tensors and sizes: one graph
# torch: accepts
import torch
import torch.nn as nn


class Window:
    def __init__(self, x, size=2):
        if x.dim() != 2 or size < 1:
            raise ValueError("a matrix and a positive size")
        self.x = x
        self.rows = x.shape[0] // size
        self.scale = float(size)


class M(nn.Module):
    def forward(self, x):
        window = Window(x, size=2)
        return window.x[: window.rows] * window.scale

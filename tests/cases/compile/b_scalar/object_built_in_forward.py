# case: an object of a plain class built in forward: Dynamo inlines its `__init__` with the arguments given, and breaks there
# torch: breaks
import torch
import torch.nn as nn


class Interval:
    def __init__(self, start, end, steps=4):
        if start > end:  # warning: DYN101
            start, end = end, start
        self.start = float(start)  # warning: DYN102
        self.end = end
        self.steps = steps


class M(nn.Module):
    def forward(self, x):
        span = Interval(end=x[-1, 0], start=x[0, 0])
        return x * span.end + span.steps

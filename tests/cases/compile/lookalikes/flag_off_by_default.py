# case: calls Dynamo breaks on, under configuration flags that are False in the module built with its defaults (a
#   parameter default, a literal, a wrapped network's flag): Dynamo decides the flag while tracing and never traces them
# torch: accepts
import random
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, self_condition=False):
        super().__init__()
        self.self_condition = self_condition
        self.proj = nn.Linear(3, 3)

    def forward(self, x):
        return self.proj(x)


class M(nn.Module):
    def __init__(self, debug=False):
        super().__init__()
        self.model = Net()
        self.self_condition = self.model.self_condition
        self.debug = debug
        self.verbose = False

    def forward(self, x):
        if self.self_condition and random.random() < 0.5:
            x = x * 2
        if self.debug:
            print(x.shape)
        y = x + 1 if not self.verbose else print(x.shape)
        return self.model(y)

# case: the same calls under configuration flags that are True in the module built with its defaults (or a flag the
#   module sets in forward: state, not configuration): Dynamo traces them and breaks
# torch: breaks
import random
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, self_condition=True):
        super().__init__()
        self.self_condition = self_condition
        self.proj = nn.Linear(3, 3)

    def forward(self, x):
        return self.proj(x)


class M(nn.Module):
    def __init__(self, debug=True):
        super().__init__()
        self.model = Net()
        self.self_condition = self.model.self_condition
        self.debug = debug
        self.warned = False

    def forward(self, x):
        if self.self_condition and random.random() < 0.5:  # warning: DYN106
            x = x * 2
        if self.debug:
            print(x.shape)  # warning: DYN104
        if not self.warned:
            print("first call")  # warning: DYN104
            self.warned = True
        return self.model(x)

# case: a flag given True to the constructor of another class (`Other(debug=True)`), which does not hand it on: the
#   other module is built with it, this one keeps its default False, so Dynamo never traces the call under it
# torch: accepts
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, debug=False):
        super().__init__()
        self.debug = debug
        self.proj = nn.Linear(3, 3)

    def forward(self, x):
        if self.debug:
            print(x.shape)
        return self.proj(x)


class Other(nn.Module):
    def __init__(self, debug=False):
        super().__init__()
        self.debug = debug
        self.proj = nn.Linear(3, 3)

    def forward(self, x):
        return self.proj(x)


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.other = Other(debug=True)

    def forward(self, x):
        return self.other(self.block(x))

# case: `__init__` stores None, then calls a method that stores a Tensor and an int: `forward` updates both
#   as the types the instance holds when `__init__` returns
# torch: accepts
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.cache = None
        self.count = None
        self.reset()

    def reset(self):
        self.cache = torch.zeros(4)
        self.count = 0

    def forward(self, x):
        self.cache = self.cache + x
        self.count = self.count + 1
        return self.cache * self.count

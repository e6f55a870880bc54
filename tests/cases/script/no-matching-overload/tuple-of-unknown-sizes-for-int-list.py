# case: a tuple of sizes of unknown types (after a module built from a parameter) given for an int[] that takes varargs
# torch: accepts
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self, act_layer=nn.ReLU):
        super().__init__()
        self.radix = 2
        self.act = act_layer(inplace=True)

    def forward(self, x):
        x = self.act(x)
        b, c, h, w = x.shape
        y = torch.zeros(b * c * h * w)
        return y.reshape((b, self.radix, c // self.radix, h, w))

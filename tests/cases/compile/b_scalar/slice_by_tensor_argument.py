# case: a submodule's `forward` that slices with its own size attribute plus a parameter, given a tensor by its caller
# torch: breaks
# inputs: (torch.randn(2, 3, 12),)
import torch
import torch.nn as nn


class Crop(nn.Module):
    def __init__(self, pad: int):
        super().__init__()
        self.pad = pad

    def forward(self, z, length):
        z = z[..., self.pad : self.pad + length]  # warning: DYN102
        return z * 2


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.crop = Crop(2)

    def forward(self, x):
        length = (x[0, 0] > -10).sum()
        return self.crop(x, length) + 1

# case: a submodule's `forward` slices with its own size attribute plus an unannotated parameter (callers pass an int)
# torch: accepts
# inputs: (torch.randn(2, 3, 12),)
import torch
import torch.nn as nn


class Crop(nn.Module):
    def __init__(self, pad: int):
        super().__init__()
        self.pad = pad

    def forward(self, z, length):
        z = z[..., self.pad : self.pad + length]
        if z.shape[-1] != length:
            raise ValueError("the crop must be `length` long")
        return z


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.crop = Crop(2)

    def forward(self, x):
        return self.crop(x, x.shape[-1] - 4) * 2

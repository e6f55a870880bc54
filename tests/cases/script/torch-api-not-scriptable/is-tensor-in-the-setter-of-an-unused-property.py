# case: a property whose getter is `@torch.jit.unused` is dropped, its setter with it
# torch: accepts
import torch
import torch.nn as nn


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.raw = nn.Parameter(torch.zeros(1))

    @property
    @torch.jit.unused
    def scale(self):
        return self.raw.exp()

    @scale.setter
    def scale(self, value):
        if not torch.is_tensor(value):
            value = torch.as_tensor(value)
        self.raw.data.copy_(value.log())

    def forward(self, x):
        return x * self.raw.exp()

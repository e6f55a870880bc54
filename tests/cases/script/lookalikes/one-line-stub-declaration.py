# case: an interface method declared on one line (`def forward(self, x: Tensor) -> Tensor: pass`) is a declaration
# torch: accepts
import torch
from torch import Tensor


@torch.jit.interface
class Encoder(torch.nn.Module):
    def forward(self, x: Tensor) -> Tensor: pass


class Impl(torch.nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        return x + 1


class M(torch.nn.Module):
    enc: Encoder

    def __init__(self):
        super().__init__()
        self.enc = Impl()

    def forward(self, x: Tensor) -> Tensor:
        return self.enc(x)

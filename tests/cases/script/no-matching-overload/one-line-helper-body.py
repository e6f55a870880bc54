# case: a helper written on one line (`def f(x): return ...`) is compiled like any other body: its call is checked
# torch: rejects
# torch-error: Arguments for call are not valid
import torch
from torch import Tensor


def shift(x): return x + "a"  # error: JIT416


class M(torch.nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        return shift(x)

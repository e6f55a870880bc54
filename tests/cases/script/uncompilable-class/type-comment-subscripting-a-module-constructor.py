# case: a TorchScript class built in compiled code whose method's `# type:` comment subscripts `t.Tuple` (typing
#   imported as a module): "Unknown type constructor", at the call that builds it
# torch: rejects
# torch-error: Unknown type constructor t.Tuple
import typing as t

import torch
import torch.nn as nn
from torch import Tensor


class Pair:
    def __init__(self, first: Tensor, second: Tensor) -> None:
        self.first = first
        self.second = second

    def scaled(self, factor):
        # type: (float) -> t.Tuple[Tensor, Tensor]
        return self.first * factor, self.second * factor


class Split(nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        pair = Pair(x, x + 1)  # error: JIT608
        return pair.first

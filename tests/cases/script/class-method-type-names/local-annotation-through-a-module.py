# case: a local variable of a TorchScript class's method annotated through a module (`typing.List[int]`): the
#   class's resolver looks names up whole (and no signature of the class spells `typing.List[int]`), so torch
#   cannot read the type
# torch: rejects
# torch-error: Unknown type constructor typing.List
import typing
from typing import List

import torch
import torch.nn as nn
from torch import Tensor


class Lengths:
    def __init__(self, sizes: List[int]) -> None:
        self.sizes = sizes

    def doubled(self) -> List[int]:
        out: typing.List[int] = []  # error: JIT203
        for size in self.sizes:
            out.append(2 * size)
        return out


class Model(nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        lengths = Lengths([1, 2])
        return x * len(lengths.sizes)

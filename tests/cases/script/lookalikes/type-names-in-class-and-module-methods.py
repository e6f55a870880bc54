# case: type names torch reads in method bodies: in a TorchScript class, names imported by name, `torch.Tensor`,
#   and a dotted type whose text a signature annotation of the class spells; in a module's method and a function,
#   dotted names (their resolver follows the modules)
# torch: accepts
import typing
from typing import List, Optional

import torch
import torch.nn as nn
from torch import Tensor


class Lengths:
    def __init__(self, sizes: List[int], scale: typing.Optional[float]) -> None:
        self.sizes = sizes
        self.scale = scale

    def doubled(self) -> List[int]:
        out: List[int] = []
        for size in self.sizes:
            out.append(2 * size)
        return out

    def scaled(self, x: Tensor) -> Tensor:
        factor: typing.Optional[float] = self.scale
        weight: torch.Tensor = x if factor is None else x * factor
        return torch.jit.annotate(Optional[Tensor], weight).clone()


def total(sizes: List[int]) -> int:
    acc: typing.List[int] = []
    for size in sizes:
        acc.append(size)
    return sum(acc)


class Model(nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        seen: typing.Dict[str, Tensor] = {}
        device: torch.device = x.device
        lengths = Lengths([1, 2], 2.0)
        seen["x"] = lengths.scaled(x).to(device)
        return seen["x"] * total(lengths.doubled())

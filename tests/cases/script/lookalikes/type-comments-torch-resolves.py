# case: `# type:` comments torch reads: in a TorchScript class, names imported by name, `torch.Tensor`, and a dotted
#   type whose text a signature annotation of the class spells (the class's resolver holds that text); in a
#   module's method and a function, dotted names (their resolver follows the dots); an exception class is not
#   compiled as a class (`can_compile_class`), whatever its comments say
# torch: accepts
import typing
from typing import Any, Optional, Tuple

import torch
import torch.nn as nn
from torch import Tensor


class Outputs:
    def __init__(self, samples: Tensor) -> None:
        self.samples = samples

    def pick(self, name):
        # type: (str) -> Any
        return self.samples

    def pair(self, factor):
        # type: (float) -> Tuple[torch.Tensor, Optional[Tensor]]
        return self.samples * factor, None

    def first(self, index: int) -> typing.Optional[Tensor]:
        return self.samples[index]

    def last(self, index):
        # type: (int) -> typing.Optional[Tensor]
        return self.samples[-index]


class ShapeError(ValueError):
    def __init__(self, message):
        # type: (str) -> None
        super().__init__(message)

    def describe(self):
        # type: () -> typing.Any
        return str(self)


def scale(x, factor):
    # type: (Tensor, float) -> typing.Tuple[Tensor, typing.Any]
    return x * factor, factor


class Gain(nn.Module):
    def forward(self, samples):
        # type: (Tensor) -> typing.Tuple[Outputs, typing.Any]
        if samples.dim() == 0:
            raise ShapeError("expected a batch")
        return Outputs(samples), scale(samples, 2.0)[1]

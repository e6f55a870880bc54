# case: a TorchScript class whose method types itself in a `# type:` comment through a module (`typing.Any`): torch
#   resolves a class's type comments by whole names, so the class cannot compile where the signature names it
# torch: rejects
# torch-error: Unknown type name 'typing.Any'
import typing

import torch
import torch.nn as nn
from torch import Tensor


class Outputs:
    def __init__(self, samples: Tensor) -> None:
        self.samples = samples

    def pick(self, name):
        # type: (str) -> typing.Any
        return self.samples


class Gain(nn.Module):
    def forward(self, samples: Tensor) -> Outputs:  # error: JIT608
        return Outputs(samples * 2.0)

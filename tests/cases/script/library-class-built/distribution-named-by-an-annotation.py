# case: annotations in compiled code naming `torch.distributions` classes (a return type, an `Optional` parameter,
#   a `torch.jit.annotate` type, a TorchScript class's parameter): torch compiles the class an annotation names,
#   from torch's own source, fails inside it, and names the annotation's line (for a return type, the whole
#   declaration from its `def` line)
# torch: rejects
# torch-error: try blocks aren't supported
from typing import Optional

import torch
from torch import Tensor
from torch.distributions import Distribution, Normal, Transform


class Flow(torch.nn.Module):
    def forward(self, x: Tensor) -> Distribution:  # error: JIT203
        x = self.transformed(x) + self.annotated(x)
        return Normal(x, torch.ones_like(x))  # error: JIT419

    def transformed(self, x: Tensor, t: Optional[Transform] = None) -> Tensor:  # error: JIT203
        return x

    def annotated(self, x: Tensor) -> Tensor:
        d = torch.jit.annotate(Optional[torch.distributions.transforms.ExpTransform], None)  # error: JIT203
        return x


class Spread(torch.nn.Module):
    def forward(  # error: JIT203
        self, x: Tensor, scale: float
    ) -> Normal:
        return Normal(x, scale)  # error: JIT419


class Box:
    def __init__(self, t: Transform):  # error: JIT203
        self.t = t


class Boxed(torch.nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        if isinstance(x, Box):
            return x
        return x

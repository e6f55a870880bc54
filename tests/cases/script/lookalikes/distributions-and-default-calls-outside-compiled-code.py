# case: torch.distributions classes where torch never compiles them (in an ignored method's body and signature
#   that compiled code does not reach, under `if not torch.jit.is_scripting()`), and calls in a compiled method's
#   parameter defaults and decorator: Python runs those when it runs the `def`, and torch only converts the
#   default's value to the parameter's type, so their functions are not compiled
# torch: accepts
import numpy as np
import torch
from torch import Tensor
from torch.distributions import Distribution, Normal


def default_scale(*factors):
    return float(np.sqrt(2.0))


def registered(*names, **options):
    table = {name: np.zeros(3) for name in names}

    def keep(function):
        return function

    return keep


class Sampler(torch.nn.Module):
    @registered("sampler", verbose=True)
    def forward(self, x: Tensor, scale: float = default_scale()) -> Tensor:
        if not torch.jit.is_scripting():
            d: Distribution = Normal(x, torch.ones_like(x))
            return d.sample() * scale
        return self.draw(x) * scale

    @torch.jit.ignore
    def draw(self, x: Tensor) -> Tensor:
        d: Distribution = Normal(x, torch.ones_like(x))
        return d.sample()

    @torch.jit.ignore
    def distribution(self, x: Tensor) -> Distribution:
        return Normal(x, torch.ones_like(x))

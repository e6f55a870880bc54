# case: `torch.distributions` used where TorchScript does not compile it: built in `__init__` and sampled in a
#   `@torch.jit.ignore` method, or drawn with tensor operations in compiled code
# torch: accepts
from typing import List

import torch
import torch.nn as nn
from torch import Tensor
from torch.distributions import Normal


class Noise(nn.Module):
    def __init__(self, scale: float = 0.1) -> None:
        super().__init__()
        self.scale = scale
        self.prior = Normal(torch.zeros(1), torch.ones(1))

    @torch.jit.ignore
    def draw(self, shape: List[int]) -> Tensor:
        return torch.distributions.Normal(torch.zeros(shape), self.scale).sample()

    def forward(self, samples: Tensor) -> Tensor:
        if self.training:
            return samples + self.draw(list(samples.shape))
        low, high = -6.0, 6.0
        gains = torch.rand(samples.shape[0], device=samples.device) * (high - low) + low
        return samples * gains.unsqueeze(-1)

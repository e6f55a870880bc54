# case: a base module whose `forward` is an `@abstractmethod` stub (`...`): the class cannot be instantiated, so it is
#       never traced; its subclass, which returns a tensor, traces
# torch: accepts
# inputs: (torch.ones(2, 3),)
# inputs2: (torch.ones(4, 3),)
from abc import ABC, abstractmethod

import torch
import torch.nn as nn


class Base(nn.Module, ABC):
    @abstractmethod
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        ...


class Stub(nn.Module):
    def forward(self, x):
        """Subclasses compute the output."""
        ...


class M(Base):
    def forward(self, x):
        return x * 2

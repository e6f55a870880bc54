# case: a docstring before `pass` is what an interface method may hold; torch checks the methods in the order of their names, and a `pass` before the last statement ends its check of the class
# torch: accepts
import torch
import torch.nn as nn


@torch.jit.interface
class Scorer(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Score x."""
        pass

    def scale(self, x: torch.Tensor) -> torch.Tensor:
        pass
        return x

    def unchecked(self, x: torch.Tensor) -> torch.Tensor:
        return x


class Net(nn.Module):
    def forward(self, x):
        return x

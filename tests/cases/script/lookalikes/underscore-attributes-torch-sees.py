# case: a module attribute with one leading underscore, a `__x` attribute only Python code reads (an ignored method),
#   and a TorchScript class whose `__init__` sets `self.__n` (torch compiles both sides, unmangled)
# torch: accepts
import torch
import torch.nn as nn


@torch.jit.script
class Box:
    def __init__(self, n: int):
        self.__n = n

    def get(self) -> int:
        return self.__n


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self._length = 3
        self.__cache = {}

    @torch.jit.ignore
    def cached(self) -> int:
        return len(self.__cache)

    def forward(self, x):
        return x * self._length * Box(2).get() + self.cached()

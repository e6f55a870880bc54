# case: `__init__` sets an attribute to None and calls a method that stores a module it is given (annotated with a
#   project class defining `__getitem__`): the instance holds that module, which TorchScript cannot subscript
# torch: rejects
# torch-error: modules are subscriptable
from typing import Optional

import torch
import torch.nn as nn
from torch import Tensor


class Store(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("a", torch.ones(2))

    def __getitem__(self, key: str) -> Tensor:
        return self.a


class Base(nn.Module):
    def __init__(self):
        super().__init__()
        self.store: Optional[Store] = None

    def update(self, store: Store):
        self.store = store


class M(Base):
    def __init__(self):
        super().__init__()
        self.update(Store())

    def forward(self, x: Tensor) -> Tensor:
        return x + self.store["a"]  # error: JIT310

# case: the module a method `__init__` calls stores is a ModuleDict subclass: subscripted with a literal, it compiles
# torch: accepts
from typing import Optional

import torch
import torch.nn as nn
from torch import Tensor


class Store(nn.ModuleDict):
    pass


class Base(nn.Module):
    def __init__(self):
        super().__init__()
        self.store: Optional[Store] = None

    def update(self, store: Store):
        self.store = store


class M(Base):
    def __init__(self):
        super().__init__()
        self.update(Store({"a": nn.Identity()}))

    def forward(self, x: Tensor) -> Tensor:
        return self.store["a"](x)

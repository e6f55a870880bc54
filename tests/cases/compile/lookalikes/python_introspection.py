# case: `isinstance`, `len`, sets, `id`, `os.environ`, `inspect.signature` of a method, an `lru_cache` helper
# torch: accepts
import functools
import inspect
import os
import torch
import torch.nn as nn


@functools.lru_cache(maxsize=None)
def scale_for(n):
    return n * 0.5


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.names = ["a", "b", "c"]
        self.lin = nn.Linear(3, 3)

    def forward(self, x):
        if isinstance(x, torch.Tensor) and len(self.names) == 3:
            x = x * 2
        keys = sorted(set(self.names) | {"d"})
        ident = id(self)
        flag = os.environ.get("SOME_FLAG", "0")
        sig = inspect.signature(self.lin.forward)
        return self.lin(x) * scale_for(4) + len(keys)

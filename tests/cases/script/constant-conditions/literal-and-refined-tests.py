# case: code torch never compiles: under `if False and ...`, in the `else` of `if True:`, and after `if p is None or p is not None: raise` (the right test runs where p is not None: always true)
# torch: accepts
from typing import Optional

import torch
import torch.nn as nn

SIZE = 8


def helper(t):
    return t * SIZE


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.callback = lambda t: t

    def forward(self, x, prev: Optional[torch.Tensor] = None):
        if False and x.is_floating_point():
            x = helper(x)
        if True:
            y = x
        else:
            y = x + SIZE
        if prev is None or prev is not None:
            raise ValueError("never compiled past here")
        return self.callback(y)

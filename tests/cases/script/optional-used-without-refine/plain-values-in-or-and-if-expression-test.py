# case: look-alike torch scripts: an int, a bool and a refined Optional made a bool by `or`, `not` and an if-expression
# torch: accepts
from typing import Optional

import torch
import torch.nn as nn


class Residual(nn.Module):
    def forward(self, x, k: int = 0, flag: bool = False, n_q: Optional[int] = None):
        k = k or 3
        y = x if not flag else x + 1
        n = 1 if n_q is None else n_q
        m = n_q is not None and n_q > 1
        return y * k * n + int(m)

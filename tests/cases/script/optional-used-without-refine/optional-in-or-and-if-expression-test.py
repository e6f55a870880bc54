# case: an Optional[int] made a bool outside an `if`: an operand of `or` in an assignment, the test of an if-expression
# torch: rejects
# torch-error: Could not cast value of type Optional[int] to bool
from typing import Optional

import torch
import torch.nn as nn


def length_mask(lengths: torch.Tensor, max_len: Optional[int] = None) -> torch.Tensor:
    final = 8 if not max_len else 16  # error: JIT704
    return torch.arange(final)[None, :] < lengths[:, None]


class Residual(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Identity(), nn.Identity()])

    def forward(self, x, n_q: Optional[int] = None):
        n_q = n_q or len(self.layers)  # error: JIT704
        return length_mask(x) * n_q

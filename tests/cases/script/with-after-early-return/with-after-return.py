# case: a `with` block assigning a variable read after it, after an `if` that returns: torch 2.13's exit transform fails with an internal assert
# torch: rejects
# torch-error: INTERNAL ASSERT FAILED
# torch-line: none
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if x.dim() == 2:
            return x
        for _ in range(2):
            with torch.no_grad():  # error: JIT709
                x = x + 1
        return x

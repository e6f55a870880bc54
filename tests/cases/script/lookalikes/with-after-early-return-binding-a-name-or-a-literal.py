# case: a `with` block after an early `return` that binds a name read after it only to another name or to a
#   literal (`x = x`, `n = 2`): it makes no new value in the block, and torch 2.13 scripts it
# torch: accepts
from typing import Dict

import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x) -> Dict[str, torch.Tensor]:
        if bool(x.any()):
            return {"aux": torch.ones(8)}
        with torch.no_grad():
            x = x
            n = 2
        return {"a": x * n}

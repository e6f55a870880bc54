# case: `defaultdict(list)` in a function forward calls: torch emits the call's arguments as values before it
#   looks at the callee, and the builtin `list` is no value
# torch: rejects
# torch-error: list cannot be used as a value
from collections import defaultdict
from typing import List

import torch
from torch import nn


def group(xs: List[torch.Tensor]) -> List[torch.Tensor]:
    groups = defaultdict(list)  # error: JIT435
    return xs


class M(nn.Module):
    def forward(self, x):
        return group([x])[0]

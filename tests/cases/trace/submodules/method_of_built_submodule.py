# case: a method of a plain object the module builds in `__init__` (`self.coder.decode(...)`): the tracer runs it,
#       and freezes the branch on a sum of sizes collected by a list comprehension
# torch: changes
# inputs: (torch.ones(2, 4),)
# inputs2: (torch.ones(3, 4),)
import torch
import torch.nn as nn


class Coder:
    def decode(self, codes: torch.Tensor, boxes: list[torch.Tensor]) -> torch.Tensor:
        per_image = [b.size(0) for b in boxes]
        total = 0
        for count in per_image:
            total += count
        if total > 4:  # warning: TRC201
            codes = codes * 2
        return codes


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.coder = Coder()

    def forward(self, x):
        return self.coder.decode(x, [x, x])

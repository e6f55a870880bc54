# case: `len()` of a tensor of a list the module builds with a method annotated `-> list[Tensor]`: torch warns (a
#       Python int while tracing); these tensors are constants, so this trace happens to be right
# torch: accepts
# inputs: (torch.ones(1, 2),)
# inputs2: (torch.ones(1, 2) * 3,)
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.pairs = self._make_pairs()

    def _make_pairs(self) -> list[torch.Tensor]:
        return [torch.ones(3, 2), torch.ones(5, 2)]

    def forward(self, x):
        return x.repeat(len(self.pairs[0]), 1)  # warning: TRC203

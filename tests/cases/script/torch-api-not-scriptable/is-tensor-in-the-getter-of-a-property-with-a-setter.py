# case: the getter of a module property that has a setter is compiled too (torch compiles both), though forward reads neither
# torch: rejects
# torch-error: Unknown builtin op: aten::is_tensor
import torch
import torch.nn as nn


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.raw = nn.Parameter(torch.zeros(1))

    @property
    def scale(self):
        if not torch.is_tensor(self.raw):  # error: JIT414
            return torch.ones(1)
        return self.raw.exp()

    @scale.setter
    def scale(self, value: torch.Tensor):
        self.raw.data.copy_(value.log())

    def forward(self, x):
        return x * self.raw.exp()

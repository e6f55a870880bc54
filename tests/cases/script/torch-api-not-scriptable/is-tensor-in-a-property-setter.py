# case: a module's property setter is compiled too (torch compiles every property's getter and setter), and so is the method it calls
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
        return self.raw.exp()

    @scale.setter
    def scale(self, value):
        self._set_scale(value)

    def _set_scale(self, value):
        if not torch.is_tensor(value):  # error: JIT414
            value = torch.as_tensor(value)
        self.raw.data.copy_(value.log())

    def forward(self, x):
        return x * self.scale

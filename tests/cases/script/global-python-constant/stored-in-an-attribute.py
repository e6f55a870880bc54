# case: a module-level int stored in a module attribute from compiled code: the right side of an attribute
#   assignment is a value (`emitSelectAssign`), and a Python global is none
# torch: rejects
# torch-error: python value of type 'int' cannot be used as a value
import torch
import torch.nn as nn

SIZE = 3


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.n = 1

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.n = SIZE  # error: JIT415
        return x * self.n

# case: the look-alike: a project class that is not an exception, built in compiled code, is compiled as a TorchScript class (its `super().__init__` is rejected)
# torch: rejects
import torch
import torch.nn as nn


class Base:
    def __init__(self, message: str):
        self.message = message


class Holder(Base):
    def __init__(self, message: str):
        super().__init__(message)  # error: JIT407


class M(nn.Module):
    def forward(self, x):
        h = Holder("a")
        return x + 1

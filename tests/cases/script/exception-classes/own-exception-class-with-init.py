# case: a project exception class with its own `__init__` (calling `super().__init__`) raised in compiled code: torch raises it by name and never compiles the class
# torch: accepts
import torch
import torch.nn as nn


class ShapeError(ValueError):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class M(nn.Module):
    def forward(self, x):
        if x.dim() != 2:
            raise ShapeError(f"expected 2 dims, got {x.dim()}")
        return x + 1

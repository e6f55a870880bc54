# case: a class-level `List[int]` annotation whose `__init__` value holds floats: torch casts the value to the annotation when it builds the script module
# torch: rejects
# torch-error: Could not cast attribute 'sizes' to type List[int]
# torch-line: none
from typing import List

import torch
import torch.nn as nn


class M(nn.Module):
    sizes: List[int]

    def __init__(self):
        super().__init__()
        self.sizes = [0.5, 1.5]

    def forward(self, x):
        return x * len(self.sizes)  # error: JIT603

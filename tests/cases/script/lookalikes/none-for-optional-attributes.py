# case: None assigned to an attribute annotated Optional in the class body, and to one `__init__` set to None
# torch: accepts
from typing import Optional

import torch
import torch.nn as nn


class M(nn.Module):
    groups: Optional[int]

    def __init__(self):
        super().__init__()
        self.groups = 8
        self.cache = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.groups = None
        self.cache = None
        return x

# case: the look-alikes: values that convert to their class-level annotations (an int to float, an int to bool, a bool to int, an empty list, None to Optional, ints to List[float])
# torch: accepts
from typing import List, Optional

import torch
import torch.nn as nn


class M(nn.Module):
    scale: float
    flag: bool
    count: int
    sizes: List[int]
    limit: Optional[int]
    weights: List[float]

    def __init__(self):
        super().__init__()
        self.scale = 2
        self.flag = 1
        self.count = True
        self.sizes = []
        self.limit = None
        self.weights = [1, 2]

    def forward(self, x):
        print(self.scale, self.flag, self.count, self.sizes, self.limit, self.weights)
        return x

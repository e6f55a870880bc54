# case: `range()` of int expressions built from Tensors (`size`, `int()` of a Tensor): all inputs are ints
# torch: accepts
from typing import List

import torch


@torch.jit.script
def steps(x, a, b: int) -> List[int]:
    return list(range(int(a) - b, x.size(0) + b))

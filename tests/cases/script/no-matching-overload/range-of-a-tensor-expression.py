# case: `range()` of an expression of unannotated parameters (Tensors to torch), not a parameter itself
# torch: rejects
# torch-error: all inputs of range must be ints, found Tensor in argument 0
from typing import List

import torch


@torch.jit.script
def steps(x, a, b: int) -> List[int]:
    return list(range(a - b, b))  # error: JIT418

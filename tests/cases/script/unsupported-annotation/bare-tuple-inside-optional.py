# case: a bare `tuple` inside `Optional[...]` in a compiled signature: try_ann_to_type resolves the element itself,
#   and a bare `tuple` is no type to it
# torch: rejects
# torch-error: could not be resolved because <class 'tuple'> could not be resolved
from typing import Optional

import torch


@torch.jit.script
def pick(x: torch.Tensor, sizes: Optional[tuple] = None):  # error: JIT203
    if sizes is None:
        return x
    return x + len(sizes)

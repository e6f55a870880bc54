# case: a dict comprehension whose unpacked target names a variable of the function bound before it with another
#   type: the comprehension's loop is a block of the function, so its variables keep the outer types
# torch: rejects
# torch-error: Variable 'k' previously had type int but is now being assigned to a value of type str
from typing import Dict

import torch


@torch.jit.script
def relu_all(x: torch.Tensor, extras: Dict[str, torch.Tensor]) -> torch.Tensor:
    k = x.size(0)
    cache = {k: v.relu() for k, v in extras.items()}  # error: JIT706
    return x + len(cache)

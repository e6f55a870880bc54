# case: comprehension targets that share a name with a variable of the function of the same type, or bound only
#   after the comprehension (its targets do not leak out)
# torch: accepts
from typing import Dict, List

import torch


@torch.jit.script
def same_type(x: torch.Tensor, extras: Dict[str, torch.Tensor]) -> torch.Tensor:
    k = "s"
    cache = {k: v.relu() for k, v in extras.items()}
    return x + len(cache) + len(k)


@torch.jit.script
def bound_after(x: torch.Tensor, names: List[str]) -> torch.Tensor:
    out = [k + "a" for k in names]
    pairs = {k: v for k, v in zip(names, names)}
    k = 1
    return x + k + len(out) + len(pairs)

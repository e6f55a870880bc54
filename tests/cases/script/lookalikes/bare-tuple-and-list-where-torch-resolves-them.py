# case: a bare `tuple` or `list` is a type at the top of a signature's annotation, as a member of `A | B` and as
#   the element of a `List[...]` that is the whole annotation: torch resolves all of these
# torch: accepts
from typing import List, Optional

import torch


@torch.jit.script
def measure(x: torch.Tensor, a: tuple, b: torch.Tensor | tuple, d: List[tuple],
            c: Optional[torch.Tensor | list] = None) -> int:
    return len(a) + len(d)

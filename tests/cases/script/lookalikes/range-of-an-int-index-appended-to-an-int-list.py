# case: the loop's index of a `range()` of ints appended to a list of int and converted to a str for a list of str
# torch: accepts
from typing import List

import torch


@torch.jit.script
def steps(x, n: int) -> List[str]:
    names: List[str] = []
    ints: List[int] = []
    for i in range(n):
        ints.append(i)
        names.append(str(i))
    return names

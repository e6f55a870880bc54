# case: a float given to `range()`, and the loop's index, an int, appended to a list of str: torch reports the first;
#   once the range is fixed, the second
# torch: rejects
# torch-error: all inputs of range must be ints, found float in argument 0
from typing import List

import torch


@torch.jit.script
def steps(x, n: float) -> List[str]:
    names: List[str] = []
    ints: List[int] = []
    for i in range(n):  # error: JIT418
        ints.append(i)
        names.append(i)  # error: JIT416
    return names

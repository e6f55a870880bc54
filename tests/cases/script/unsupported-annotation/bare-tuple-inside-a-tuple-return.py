# case: a bare `tuple` as an element of a `tuple[...]` return annotation: torch builds the Tuple type from its
#   elements and fails, with no line ("Can not create tuple with None type"); the return below is never checked
# torch: rejects
# torch-error: Can not create tuple with None type
# torch-line: none
import torch


@torch.jit.script
def split(x: torch.Tensor, flag: bool) -> tuple[torch.Tensor, tuple]:  # error: JIT203
    states = () if flag else None
    return x, states

# case: the early return in the `else:` of the `if`, and the `with` block nested in a later `if`
# torch: rejects
# torch-error: INTERNAL ASSERT FAILED
# torch-line: none
import torch


@torch.jit.script
def shift(x: torch.Tensor) -> torch.Tensor:
    if x.dim() != 2:
        x = x + 1
    else:
        return x
    if x.dim() == 3:
        with torch.no_grad():  # error: JIT709
            x = x * 2
    return x

# case: a helper whose unannotated int default torch rejects returns that parameter: an int once the parameter is
#   annotated as its default says, so a caller's `range()` of it is not reported (only the default is)
# torch: rejects
# torch-error: Expected a default value of type Tensor (inferred) on parameter
import torch


def repeats(x, k=2):  # error: JIT201
    return k


@torch.jit.script
def entry(x):
    for _ in range(repeats(x)):
        x = x + 1
    return x

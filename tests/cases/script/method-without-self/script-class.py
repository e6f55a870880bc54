# case: every method of a TorchScript class is compiled, called or not
# torch: rejects
# torch-error: methods must have a self argument
import torch


class Tally:
    def __init__(self):
        self.n = 1

    def reset():  # error: JIT629
        return 0


@torch.jit.script
def make(x: int) -> int:
    t = Tally()
    return t.n + x

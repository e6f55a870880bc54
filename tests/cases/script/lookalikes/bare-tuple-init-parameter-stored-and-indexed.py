# case: an `__init__` parameter annotated with a bare `tuple`, stored in `self.window_size`: torch types the attribute
#   by the value the instance holds (a Tuple[int, int]), so indexing it in `forward` compiles
# torch: accepts
import torch


class RelativeBias(torch.nn.Module):
    def __init__(self, window_size: tuple = (14, 14)):
        super().__init__()
        self.window_size = window_size

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * (2 * self.window_size[0] - 1)


torch.jit.script(RelativeBias((14, 14)))

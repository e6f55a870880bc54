# case: an interface method whose body computes something before its `pass`
# torch: rejects
# torch-error: interfaces declarations should only contain a single 'pass' statement
import torch


@torch.jit.interface
class Scorer:
    def score(self, x: torch.Tensor) -> torch.Tensor:  # error: JIT242
        x.sum()
        pass


@torch.jit.script
def run(x: torch.Tensor) -> torch.Tensor:
    return x

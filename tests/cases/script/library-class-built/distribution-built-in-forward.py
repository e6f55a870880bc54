# case: a `torch.distributions` class built in compiled code: torch compiles the class from its own source and
#   fails inside it (`broadcast_all(*values)`), naming the line that builds it
# torch: rejects
# torch-error: Compiled functions can't take variable number of arguments
import torch
import torch.nn as nn
from torch import Tensor


class Gain(nn.Module):
    def __init__(self, low: float = -6.0, high: float = 6.0) -> None:
        super().__init__()
        self.low = low
        self.high = high

    def forward(self, samples: Tensor) -> Tensor:
        distribution = torch.distributions.Uniform(  # error: JIT419
            low=torch.tensor(self.low, device=samples.device),
            high=torch.tensor(self.high, device=samples.device),
        )
        gains = distribution.sample(sample_shape=(samples.shape[0],))
        return samples * gains.unsqueeze(-1)

# case: `round(x.shape[-1] * 0.5)`: under trace the size is a 0-dim tensor, which has no `__round__`: tracing raises
#       (eager, where sizes are ints, runs)
# torch: rejects
# torch-error: type Tensor doesn't define __round__ method
# inputs: (torch.ones(2, 4),)
# inputs2: (torch.ones(2, 6),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        half = round(x.shape[-1] * 0.5)  # error: TRC106
        return x[:, :half]

# case: a loop over the rows of `nonzero`: unrolled
# torch: changes
# inputs: (torch.tensor([[1.0, -1.0], [2.0, 3.0]]),)
# inputs2: (torch.tensor([[1.0, 5.0], [2.0, 3.0]]),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        idx = torch.nonzero(x > 0)
        out = x.new_zeros(())
        for i in range(idx.shape[0]):  # warning: TRC202
            out = out + x[idx[i, 0], idx[i, 1]]
        return out

# case: a method writes `self.pyramid` and forward reads it back in the same call: what is read is what this call
#       traced, so the trace is right on every input
# torch: accepts
# inputs: (torch.ones(2, 4),)
# inputs2: (torch.ones(3, 8) * 2,)
import torch
import torch.nn as nn


class M(nn.Module):
    def build(self, x):
        self.pyramid = [x]
        for _ in range(2):
            self.pyramid.append(self.pyramid[-1] * 2)

    def forward(self, x):
        self.build(x)
        return torch.cat(self.pyramid, dim=0)

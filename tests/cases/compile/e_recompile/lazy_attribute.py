# case: an attribute set once, on the first call: one recompile
# torch: recompiles
# hazard: no
# calls: 6
# recompile-limit: not hit
# recompiles: 1
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.scales = None

    def forward(self, x):
        if self.scales is None:  # unreported: set once, one recompile
            self.scales = [0.5, 0.25]
        return x * self.scales[0]

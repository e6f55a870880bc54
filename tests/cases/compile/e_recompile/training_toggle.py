# case: `.train()`/`.eval()` between calls: one compile per mode, then cached
# torch: recompiles
# hazard: no
# calls: 6
# toggle: train
# recompile-limit: not hit
# recompiles: 1
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if self.training:  # unreported: one graph per mode, each cached
            return x * 2
        return x * 3

# case: `torch.equal` breaks whatever the config
# torch: breaks
# settings: capture-scalar-outputs=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if torch.equal(x, x * 1):  # warning: DYN102
            return x
        return x + 1

# case: `bool(t)` in a test with scalars captured: the decision breaks
# torch: breaks
# settings: capture-scalar-outputs=true
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if bool((x > 0).any()):  # warning: DYN101
            return x * 2
        return x

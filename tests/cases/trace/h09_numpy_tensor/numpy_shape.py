# case: `np.sqrt(x.shape[-1])`: baked, and torch's warning is hidden
# torch: changes
# inputs: (torch.randn(2, 4),)
# inputs2: (torch.randn(2, 9),)
import numpy as np
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        return x / np.sqrt(x.shape[-1])  # warning: TRC204

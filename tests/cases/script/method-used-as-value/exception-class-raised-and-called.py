# case: exception classes raised, built and a warning without a category: what torch compiles
# torch: accepts
import warnings

import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        warnings.warn("num_data is only used with Pyro")
        if x.dim() == 0:
            raise RuntimeError
        if x.dim() > 4:
            raise ValueError("at most 4 dimensions")
        return x

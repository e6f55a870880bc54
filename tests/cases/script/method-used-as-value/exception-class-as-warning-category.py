# case: an exception class passed as a value (a warning's category): torch compiles exception classes only to be raised or called
# torch: rejects
# torch-error: Python exception cannot be used as a value
import warnings

import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        warnings.warn("num_data is only used with Pyro", RuntimeWarning)  # error: JIT435
        return x

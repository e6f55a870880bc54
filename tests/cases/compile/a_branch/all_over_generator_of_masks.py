# case: `all()`/`any()` over a generator or list of comparisons of tensors: the polyfill takes the truth value of each item (a data-dependent branch)
# torch: breaks
import torch
import torch.nn as nn


def increasing(ts):
    return all(a < b for a, b in zip(ts[:-1], ts[1:]))  # warning: DYN101


class M(nn.Module):
    def forward(self, x):
        if not increasing(x[:, 0]):
            x = x + 1
        found = any([row.sum() > 0 for row in x])  # warning: DYN101
        return x * 2, found

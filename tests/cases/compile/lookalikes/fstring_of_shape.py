# case: f-strings and `str` of shapes and sizes are constants
# torch: accepts
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        x = x + 1
        msg = f"shape {x.shape} {x.shape[0]} {x.dtype}"
        key = "v" + str(x.shape[0])
        n = len(msg) + len(key)
        return x * n

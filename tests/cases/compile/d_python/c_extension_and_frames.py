# case: a C extension, `inspect.stack()`, `sys._getframe()`
# torch: breaks
import inspect
import sys
import zlib
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        h = zlib.crc32(b"model")  # warning: DYN106
        x = x + 1
        stack = inspect.stack()  # warning: DYN106
        x = x + 1
        frame = sys._getframe()  # warning: DYN106
        x = x + 1
        return x + h % 7

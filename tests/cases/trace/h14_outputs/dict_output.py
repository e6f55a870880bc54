# case: a dict output with `strict=True` (the default)
# torch: rejects
# torch-error: Encountering a dict at the output of the tracer
# inputs: (torch.randn(8, 3),)
# inputs2: (torch.randn(5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        return {"a": x * 2, "b": x + 1}  # error: TRC101

# case: a project function that only returns `torch._C._get_tracing_state()` (None while Dynamo traces), and code
#   under it that would break: Dynamo folds the call and never traces that branch
# torch: accepts
import torch
import torch.nn as nn


def _is_tracing():
    return torch._C._get_tracing_state()


class M(nn.Module):
    def forward(self, x):
        if _is_tracing():
            print(x.shape)
            n = int(x.sum())
            return x * n
        return x * 2

# case: a `torch.compiler.disable` function is not traced (the call is a deliberate break, not reported)
# torch: breaks
# hazard: no
import torch
import torch.nn as nn


@torch.compiler.disable
def log_stats(x):
    print(x.mean())


class M(nn.Module):
    def forward(self, x):
        x = x + 1
        log_stats(x)  # unreported: the user asked for this break (gb0098)
        return x * 2

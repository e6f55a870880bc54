# case: look-alike torch scripts: the same message with the text written out (`cond.size(-1)={...}`)
# torch: accepts
import torch
import torch.nn as nn


class Net(nn.Module):
    def forward(self, x, cond):
        assert cond.size(-1) <= 2 * x.size(-1), f"downsampling cond.size(-1)={cond.size(-1)} and x.size(-1)={x.size(-1)}"
        return x

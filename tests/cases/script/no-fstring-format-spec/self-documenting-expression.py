# case: a self-documenting f-string expression `{x=}` in an assert message (Python's parser makes it a `!r` conversion)
# torch: rejects
# torch-error: Don't support conversion in JoinedStr
import torch
import torch.nn as nn


class Net(nn.Module):
    def forward(self, x, cond):
        assert cond.size(-1) <= 2 * x.size(-1), f"downsampling {cond.size(-1)=} and {x.size(-1)=}"  # error: JIT115
        return x

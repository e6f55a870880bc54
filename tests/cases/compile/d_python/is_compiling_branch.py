# case: `is_compiling()` is True and `is_scripting()` False while Dynamo traces: the other branches are not traced
# torch: accepts
import numpy as np
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if torch.jit.is_scripting():
            return x
        if not torch.compiler.is_compiling():
            print("eager only", x)
            x = torch.from_numpy(np.asarray(x.detach().numpy()))
        return x * 2

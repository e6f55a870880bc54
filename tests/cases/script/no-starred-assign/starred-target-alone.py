# case: a starred target alone on the left of an assignment, of a tuple whose length torch knows
# torch: rejects
# torch-error: A Starred expression may only appear on the lhs within the presence of another non-starred expression
import torch
from torch import nn


class M(nn.Module):
    def forward(self, x):
        *rest, = (x, x)  # error: JIT119
        return rest[0]

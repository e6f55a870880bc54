# case: `random.randint`/`uniform`/`randrange` are replayed by Dynamo: no break
# torch: accepts
import random
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        u = random.uniform(0.0, 1.0)
        i = random.randint(0, 3)
        j = random.randrange(4)
        return x * u + i + j

# case: NumPy random draws given a size are arrays Dynamo traces as torch ops: one graph
# torch: accepts
import numpy as np
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        a = np.random.randint(0, 10, size=3)
        b = np.random.normal(0.0, 1.0, (3,))
        c = np.random.rand(3) + np.random.random(3) + np.random.uniform(0.0, 1.0, size=3)
        return x + torch.from_numpy(a + b + c).float()

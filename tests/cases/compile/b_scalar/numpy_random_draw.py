# case: NumPy random draws without a size are Python numbers Dynamo reads from a traced tensor ("Data dependent operator")
# torch: breaks
import numpy as np
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        seed = np.random.randint(0, 2**31 - 1)  # warning: DYN102
        scale = np.random.uniform(0.5, 1.5)  # warning: DYN102
        noise = np.random.rand()  # warning: DYN102
        return x * 2, seed, scale, noise

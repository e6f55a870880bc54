# case: NumPy on tensors: Dynamo traces it as torch ops
# torch: accepts
import numpy as np
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        a = x.numpy()
        b = np.exp(a) + np.random.rand(*a.shape)
        return torch.from_numpy(b).float()

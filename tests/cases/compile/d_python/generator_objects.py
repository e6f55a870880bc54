# case: a `torch.Generator` or a NumPy `SeedSequence` made in traced code: Dynamo cannot make either object in the graph
# torch: breaks
import numpy as np
import torch
import torch.nn as nn


def noise(size, seed):
    generator = torch.Generator("cpu").manual_seed(int(seed))  # warning: DYN106
    return torch.randn(size, generator=generator)  # unreported: an op given a generator ("Failed to convert args/kwargs to proxy")


class M(nn.Module):
    def forward(self, x):
        sequence = np.random.SeedSequence(entropy=1234, pool_size=4)  # warning: DYN106
        return x + noise(x.shape, 7)

# case: `time.time()`, `time.perf_counter()`, `random.random()`, `random.choice`
# torch: breaks
import random
import time
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        t = time.time()  # warning: DYN106
        x = x + 1
        p = time.perf_counter()  # warning: DYN106
        x = x + 1
        r = random.random()  # warning: DYN106
        x = x + 1
        c = random.choice([1, 2])  # warning: DYN106
        return x * r + t * 0 + p * 0 + c

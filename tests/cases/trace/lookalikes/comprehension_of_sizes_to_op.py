# case: sizes collected by a list comprehension and given to ops (`torch.split`'s sizes are converted inside torch,
#       `view` keeps them): only the conversion inside torch is frozen
# torch: accepts
# inputs: (torch.ones(2, 6),)
# inputs2: (torch.ones(3, 6),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        parts = [x, x * 2]
        sizes = [part.size(0) for part in parts]
        return torch.cat(parts).view(sizes[0] + sizes[1], -1)

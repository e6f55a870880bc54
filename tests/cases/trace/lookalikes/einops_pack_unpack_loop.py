# case: `einops.pack` then `unpack`, the unpacked parts iterated by a Python `for`: a list of tensors whose length
#       is the number of packed parts, not a size: nothing is frozen
# torch: accepts
# inputs: (torch.ones(2, 3, 4), torch.ones(2, 5))
# inputs2: (torch.ones(3, 6, 4), torch.ones(3, 5))
import torch
import torch.nn as nn
from einops import pack, unpack


class M(nn.Module):
    def forward(self, x, y):
        packed, shapes = pack([x, y], "b *")
        packed = packed * 2
        total = torch.zeros(packed.shape[0])
        for part in unpack(packed, shapes, "b *"):
            total = total + part.flatten(1).sum(-1)
        return total

# case: traced sizes kept in a list display, passed to a helper and compared there by index: frozen
# torch: changes
# inputs: (torch.ones(1, 3, 4, 4),)
# inputs2: (torch.ones(1, 3, 8, 8),)
import torch
import torch.nn as nn


def fitting(size: list[int], window: list[int]) -> int:
    count = 0
    for i in range(2):
        if size[i] <= window[i]:  # warning: TRC201
            count += 1
    return count


class M(nn.Module):
    def forward(self, x):
        h, w = x.shape[-2:]
        size = [h, w]
        return x * fitting(size, [4, 4])

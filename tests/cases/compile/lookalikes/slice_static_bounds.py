# case: slicing a tensor with bounds from its shape, Python ints and a tensor's own slice: static, no break
# torch: accepts
# inputs: (torch.rand(8, 8), torch.tensor([1, 1, 5, 5]))
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, mask, box):
        n = mask.shape[1] // 2
        top = box[0:2]
        return mask[:, 0:n] * 2 + mask[1:, :].sum() + top.sum()

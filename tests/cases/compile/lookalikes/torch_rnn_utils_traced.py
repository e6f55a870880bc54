# case: `pad_sequence` and random tensors: Dynamo traces them (only some torch functions are marked skipped)
# torch: accepts
# inputs: (torch.randn(2, 5, 3),)
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        padded = nn.utils.rnn.pad_sequence([x[0], x[1, :3]], batch_first=True)
        return padded * torch.rand(padded.shape)

# case: a per-utterance loop over the batch: unrolled
# torch: changes
# inputs: (torch.randn(2, 10, 4), torch.tensor([7, 5]))
# inputs2: (torch.randn(3, 10, 4), torch.tensor([3, 9, 4]))
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, feats, lengths):
        outs = []
        for b in range(feats.size(0)):  # warning: TRC202
            outs.append(feats[b, : lengths[b]].mean(0))
        return torch.stack(outs)

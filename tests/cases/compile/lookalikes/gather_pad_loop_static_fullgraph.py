# case: fullgraph: `gather` by a static index, `pad_sequence` of plain rows, a loop that keeps shapes: one graph
# torch: accepts
# settings: fullgraph=true
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pad_sequence


class M(nn.Module):
    def forward(self, x):
        picked = x[:, 1].gather(0, torch.argsort(x[:, 0]))
        rows = pad_sequence([t * 2 for t in torch.unbind(x)], batch_first=True)
        for _ in range(2):
            if x.shape[0] > 2:
                x = x * 2
            x = x[:, :3]
        if picked.shape[0] > 2 and rows.shape[1] > 2:
            return x + picked.sum() + rows.sum()
        return x

# case: fullgraph: `F.one_hot` without `num_classes` is refused even when dynamic output shapes are captured
# torch: rejects
# settings: fullgraph=true
import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def forward(self, x):
        labels = (x[:, 0] > 0).long()
        return F.one_hot(labels).float().sum() + x.sum()  # warning: DYN103
